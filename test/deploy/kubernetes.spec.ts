import { METRICS_PORTS, parseConfig } from '@app/common';
import { join } from 'node:path';
import { z, ZodTypeAny } from 'zod';
import { gatewayConfigShape } from '../../apps/gateway/src/config';
import { roomsConfigShape } from '../../apps/rooms/src/config';
import { dispatcherConfigShape } from '../../apps/webhook-dispatcher/src/config';
import { build, K8sObject, readYamlDocuments, renderWithKustomize } from './kustomize';

/**
 * deploy/kubernetes rendered (base, and each overlay on it) and checked object by object:
 * the same objects as kustomize renders (when it is installed), the operators' resources
 * against schemas of our own, and the services' Deployments against what the services
 * expect (compose's command, their ports, probes, settings that pass their own validation).
 * kubernetes.schema.spec.ts validates the built-in kinds against the Kubernetes API schemas.
 */
const ROOT = join(__dirname, '../../deploy/kubernetes');
export const KUSTOMIZATIONS = ['base', 'overlays/production'];

const SERVICES = {
  gateway: { shape: gatewayConfigShape, main: 'dist/apps/gateway/apps/gateway/src/main.js' },
  rooms: { shape: roomsConfigShape, main: 'dist/apps/rooms/apps/rooms/src/main.js' },
  'webhook-dispatcher': { shape: dispatcherConfigShape, main: 'dist/apps/webhook-dispatcher/apps/webhook-dispatcher/src/main.js' },
} as const;

/** Secrets the operators create (not in the manifests), with values shaped like theirs. */
const OPERATOR_SECRETS: Record<string, Record<string, string>> = {
  'chat-postgres-app': { uri: 'postgresql://chat:YWJjZGVmZ2hpamtsbW5vcA@chat-postgres-rw.chat:5432/chat' },
  'chat-rabbitmq-default-user': { username: 'default_user_Zm9vYmFyYmF6cXV4', password: 'c2VjcmV0LXBhc3N3b3JkLWJhc2U2NA' },
  // Created by the operator (README: Secrets at rest); a test key here.
  'chat-secrets-keys': { SECRETS_KEYS: `k1:${Buffer.alloc(32, 'kubernetes spec test key').toString('base64')}` },
};

/** The operators' kinds are not in the Kubernetes schemas: the fields we use, typo-proof (strict). */
const CUSTOM_RESOURCES: Record<string, ZodTypeAny> = {
  'rabbitmq.com/v1beta1/RabbitmqCluster': z.object({
    replicas: z.literal(3),
    image: z.string().regex(/^rabbitmq:3\.13/),
    resources: z.object({ requests: z.record(z.string()), limits: z.record(z.string()) }).strict(),
    persistence: z.object({ storage: z.string().regex(/^\d+[GM]i$/) }).strict(),
    override: z.object({ statefulSet: z.object({ spec: z.object({ template: z.object({ metadata: z.object({ annotations: z.record(z.string()) }).strict() }).strict() }).strict() }).strict() }).strict(),
  }).strict(),
  'postgresql.cnpg.io/v1/Cluster': z.object({
    instances: z.number().int().min(1),
    imageName: z.string().min(1),
    bootstrap: z.object({ initdb: z.object({ database: z.string(), owner: z.string() }).strict() }).strict(),
    storage: z.object({ size: z.string().regex(/^\d+[GM]i$/) }).strict(),
    resources: z.object({ requests: z.record(z.string()), limits: z.record(z.string()) }).strict(),
    inheritedMetadata: z.object({ annotations: z.record(z.string()) }).strict(),
  }).strict(),
};

const BUILT_IN_GROUPS = ['v1', 'apps/v1', 'autoscaling/v2', 'policy/v1'];

type Container = {
  name: string; image: string; args?: string[]; env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
};
type PodTemplate = { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: { containers: Container[]; securityContext?: Record<string, unknown>; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] } };

const spec = <T>(o: K8sObject) => o.spec as T;
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

const compose = readYamlDocuments(join(__dirname, '../../docker-compose.yml'))[0] as { services: Record<string, { command: string[] }> };

/** A container's environment as the kubelet gives it: envFrom, then env (which wins), `$(VAR)` expanded from earlier entries. */
function environment(objects: K8sObject[], c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  const secret = (name: string): Record<string, string> => {
    const o = find(objects, 'Secret', name);
    const data = (o?.stringData as Record<string, string> | undefined) ?? OPERATOR_SECRETS[name];
    if (!data) throw new Error(`${c.name}: no Secret ${name}`);
    return data;
  };
  const configMap = (name: string): Record<string, string> => {
    const o = find(objects, 'ConfigMap', name);
    if (!o) throw new Error(`${c.name}: no ConfigMap ${name}`);
    return o.data as Record<string, string>;
  };
  for (const from of c.envFrom ?? []) Object.assign(env, from.configMapRef ? configMap(from.configMapRef.name) : secret(from.secretRef!.name));
  for (const e of c.env ?? []) {
    if (e.value !== undefined) {
      env[e.name] = e.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, v: string) => (v in env ? env[v] : whole));
    } else {
      const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
      const source = e.valueFrom?.secretKeyRef ? secret(ref!.name) : configMap(ref!.name);
      if (!(ref!.key in source)) throw new Error(`${c.name}: ${e.name} names key ${ref!.key}, not in ${ref!.name}`);
      env[e.name] = source[ref!.key];
    }
  }
  return env;
}

describe.each(KUSTOMIZATIONS)('deploy/kubernetes/%s', (dir) => {
  const objects = build(join(ROOT, dir));

  it('renders the objects kustomize renders (compared when kustomize 5 or kubectl is installed)', () => {
    const rendered = renderWithKustomize(join(ROOT, dir));
    if (rendered === undefined) return; // composed above; nothing to compare with on this machine
    const byKey = (list: K8sObject[]) => Object.fromEntries(list.map((o) => [key(o), o]));
    expect(byKey(objects)).toEqual(byKey(rendered));
    expect(rendered).toHaveLength(objects.length);
  });

  it('names every object once, each of a known kind; the operators\' kinds match our schemas of their fields', () => {
    expect(new Set(objects.map(key)).size).toBe(objects.length);
    for (const o of objects) {
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      const custom = CUSTOM_RESOURCES[`${o.apiVersion}/${o.kind}`];
      if (custom) expect(() => custom.parse(o.spec)).not.toThrow();
      else expect(BUILT_IN_GROUPS).toContain(o.apiVersion);
    }
  });

  it('keeps secrets out of ConfigMaps', () => {
    for (const cm of objects.filter((o) => o.kind === 'ConfigMap')) {
      for (const [name, value] of Object.entries(cm.data as Record<string, string>)) {
        expect(name).not.toMatch(/^(DATABASE|AMQP|REDIS)_URL$|PASSWORD|SECRET|TOKEN/);
        expect(value).not.toMatch(/:\/\/[^/@]*:[^/@]*@/);
      }
    }
  });

  describe.each(Object.entries(SERVICES))('%s', (name, service) => {
    const deployment = find(objects, 'Deployment', name)!;
    const template = () => spec<{ template: PodTemplate; selector: { matchLabels: Record<string, string> } }>(deployment);
    const container = () => template().template.spec.containers[0];
    const port = METRICS_PORTS[name as keyof typeof METRICS_PORTS];

    it('runs docker-compose.yml\'s command as a non-root user, with requests and limits', () => {
      expect(deployment).toBeDefined();
      expect(container().args).toEqual(compose.services[name].command);
      expect(container().args).toContain(service.main);
      expect(container().image).toMatch(/chat-room-service/);
      const pod = template().template.spec.securityContext!;
      expect(pod).toMatchObject({ runAsNonRoot: true });
      expect(pod.runAsUser).toBeGreaterThan(0);
      expect(container().securityContext).toMatchObject({ allowPrivilegeEscalation: false });
      expect(Object.keys(container().resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(Object.keys(container().resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(template().selector.matchLabels).toEqual(template().template.metadata.labels);
    });

    it('probes /health/live and /health/ready on METRICS_PORT, where Prometheus is told to scrape', () => {
      const metrics = container().ports!.find((p) => p.name === 'metrics')!;
      expect(metrics.containerPort).toBe(port);
      expect(container().livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'metrics' });
      expect(container().readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'metrics' });
      expect(template().template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics',
      });
    });

    it('gives it settings that pass its own start-up validation, listening where the probes look', () => {
      const env = environment(objects, container());
      const config = parseConfig(service.shape as Record<string, ZodTypeAny>, env) as Record<string, unknown>;
      expect(config.METRICS_PORT).toBe(port);
      expect(config.METRICS_HOST).toBe('0.0.0.0');
      // Every URL names a host of the cluster, not the services' 127.0.0.1 defaults.
      for (const variable of ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL'].filter((v) => v in service.shape)) {
        expect(env[variable]).toBeDefined();
        expect(new URL(env[variable]).hostname).not.toBe('127.0.0.1');
        expect(env[variable]).not.toContain('$(');
      }
    });

    it('has a PodDisruptionBudget, and an autoscaler if it is the gateway or the dispatcher', () => {
      const pdb = find(objects, 'PodDisruptionBudget', name)!;
      expect(spec<{ selector: unknown }>(pdb).selector).toEqual(template().selector);
      const hpa = find(objects, 'HorizontalPodAutoscaler', name);
      if (name === 'rooms') return expect(hpa).toBeUndefined();
      expect(spec<{ scaleTargetRef: unknown; minReplicas: number }>(hpa!)).toMatchObject({
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: 2,
      });
    });
  });

  it('exposes the gateway\'s public port, and mounts the ReadWriteMany files claim where FILE_STORAGE_DIR says', () => {
    const gateway = spec<{ template: PodTemplate }>(find(objects, 'Deployment', 'gateway')!).template;
    const c = gateway.spec.containers[0];
    const env = environment(objects, c);
    const service = spec<{ selector: unknown; ports: { port: number; targetPort: string }[] }>(find(objects, 'Service', 'gateway')!);
    expect(service.selector).toEqual(gateway.metadata.labels);
    expect(c.ports!.find((p) => p.name === service.ports[0].targetPort)!.containerPort).toBe(Number(env.PORT));

    const volume = gateway.spec.volumes!.find((v) => v.persistentVolumeClaim)!;
    expect(c.volumeMounts).toContainEqual({ name: volume.name, mountPath: env.FILE_STORAGE_DIR });
    const claim = find(objects, 'PersistentVolumeClaim', volume.persistentVolumeClaim!.claimName)!;
    expect(spec<{ accessModes: string[] }>(claim).accessModes).toEqual(['ReadWriteMany']);
  });
});

describe('deploy/kubernetes/overlays/production', () => {
  const objects = build(join(ROOT, 'overlays/production'));

  it('runs RabbitMQ (three nodes) and PostgreSQL by their operators, Redis beside them, all in one namespace', () => {
    expect(find(objects, 'RabbitmqCluster', 'chat-rabbitmq')).toMatchObject({ apiVersion: 'rabbitmq.com/v1beta1', spec: { replicas: 3 } });
    expect(find(objects, 'Cluster', 'chat-postgres')).toMatchObject({ apiVersion: 'postgresql.cnpg.io/v1', spec: { bootstrap: { initdb: { database: 'chat', owner: 'chat' } } } });
    expect(find(objects, 'Service', 'redis')).toBeDefined();
    expect(new Set(objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata.namespace))).toEqual(new Set(['chat']));
    expect(objects.filter((o) => (o.spec as { template?: PodTemplate })?.template).flatMap((o) => spec<{ template: PodTemplate }>(o).template.spec.containers.map((c) => c.image)))
      .toEqual(expect.arrayContaining(['registry.example.com/chat-room-service:0.1.0']));
  });
});

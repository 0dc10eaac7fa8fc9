import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as the manifests write it. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
};

type Kustomization = {
  resources?: string[];
  patches?: { path: string }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  namespace?: string;
};

/**
 * The kustomize features deploy/kubernetes uses, composed as kustomize 5 does, so the
 * manifests can be rendered and checked on a machine without kustomize (CI's may have none:
 * Debian ships only kubectl 1.20, whose kustomize 2 predates `patches`). Anything else in a
 * kustomization is refused, so that this stays exact; where kustomize itself is found, the
 * test also renders with it and requires the same objects.
 */
const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'patches', 'images', 'namespace']);

export function readYamlDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS();
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

export function build(dir: string): K8sObject[] {
  const [k] = readYamlDocuments(join(dir, 'kustomization.yaml')) as Kustomization[];
  const unknown = Object.keys(k).filter((f) => !KNOWN_FIELDS.has(f));
  if (unknown.length > 0) throw new Error(`${dir}/kustomization.yaml: ${unknown.join(', ')} not supported by this composer`);

  let objects: K8sObject[] = [];
  for (const entry of k.resources ?? []) {
    const path = join(dir, entry);
    objects.push(...(statSync(path).isDirectory() ? build(path) : (readYamlDocuments(path) as K8sObject[])));
  }
  for (const { path } of k.patches ?? []) {
    for (const patch of readYamlDocuments(join(dir, path)) as K8sObject[]) {
      const i = objects.findIndex((o) => sameObject(o, patch));
      if (i < 0) throw new Error(`${dir}/${path}: no ${patch.kind} ${patch.metadata.name} to patch`);
      objects[i] = strategicMerge(objects[i], patch, []) as K8sObject;
    }
  }
  for (const image of k.images ?? []) objects = objects.map((o) => withImage(o, image));
  if (k.namespace) objects = objects.map((o) => (o.kind === 'Namespace' ? o : { ...o, metadata: { ...o.metadata, namespace: k.namespace } }));
  return objects;
}

const sameObject = (a: K8sObject, b: K8sObject) =>
  a.kind === b.kind && a.apiVersion.split('/')[0] === b.apiVersion.split('/')[0] && a.metadata.name === b.metadata.name;

/** The lists of core types that a strategic merge patch merges by key (the others it replaces). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name', initContainers: 'name', env: 'name', volumes: 'name', volumeMounts: 'mountPath', ports: 'containerPort',
};

/**
 * Maps merge key by key (null deletes); lists with a merge key merge item by item, the patch's
 * items first in its order and then the others in theirs (kustomize 5's order, checked against
 * it); other lists and scalars are replaced.
 */
function strategicMerge(target: unknown, patch: unknown, path: string[]): unknown {
  if (Array.isArray(patch) && Array.isArray(target) && MERGE_KEYS[path[path.length - 1]]) {
    const key = MERGE_KEYS[path[path.length - 1]];
    const merged = patch.map((item) => {
      const old = target.find((t) => t[key] === item[key]);
      return old === undefined ? withoutNulls(item) : strategicMerge(old, item, path);
    });
    return [...merged, ...target.filter((t) => !patch.some((p) => p[key] === t[key]))];
  }
  if (isMap(patch) && isMap(target)) {
    const out: Record<string, unknown> = { ...target };
    for (const [field, value] of Object.entries(patch)) {
      if (value === null) delete out[field];
      else out[field] = field in target ? strategicMerge(target[field], value, [...path, field]) : withoutNulls(value);
    }
    return out;
  }
  return withoutNulls(patch);
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isMap(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([f, v]) => [f, withoutNulls(v)]));
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** kustomize's `images`: every container whose image is that name (with or without a tag) gets the new name and tag. */
function withImage(o: K8sObject, image: { name: string; newName?: string; newTag?: string }): K8sObject {
  const spec = (o.spec as { template?: { spec?: { containers?: { image: string }[]; initContainers?: { image: string }[] } } } | undefined)?.template?.spec;
  if (!spec) return o;
  const rename = (c: { image: string }) => {
    const [name, tag] = c.image.split(':');
    if (name !== image.name) return c;
    const newTag = image.newTag ?? tag;
    return { ...c, image: `${image.newName ?? name}${newTag ? `:${newTag}` : ''}` };
  };
  const copy = structuredClone(o);
  const s = (copy.spec as { template: { spec: typeof spec } }).template.spec;
  if (s.containers) s.containers = s.containers.map(rename);
  if (s.initContainers) s.initContainers = s.initContainers.map(rename);
  return copy;
}

/** `kustomize build` or `kubectl kustomize` (kustomize 5 either way), when one is installed. */
export function renderWithKustomize(dir: string): K8sObject[] | undefined {
  for (const [command, args] of [['kustomize', ['build', dir]], ['kubectl', ['kustomize', dir]]] as const) {
    const run = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
    if (run.error) continue; // not installed
    const version = spawnSync(command, command === 'kustomize' ? ['version'] : ['version', '--client'], { encoding: 'utf8' }).stdout;
    if (!/v[5-9]\.\d+/.test(version.match(/Kustomize Version: (\S+)/)?.[1] ?? version)) continue;
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
    return parseAllDocuments(run.stdout).map((d) => d.toJS()).filter(Boolean) as K8sObject[];
  }
  return undefined;
}

import { join } from 'node:path';
import { build } from './kustomize';

/**
 * Every built-in object of deploy/kubernetes (base, and each overlay on it) against the
 * Kubernetes API's own schemas, as the kubernetes-models package (4.x: it also ships CommonJS, which Jest loads) ships them (generated from
 * the API's OpenAPI document; @kubernetes-models/validate runs them): unknown fields, wrong
 * types and missing required fields fail. The operators' kinds are checked in kubernetes.spec.ts.
 */
const ROOT = join(__dirname, '../../deploy/kubernetes');

type Model = new (data: unknown) => { validate(): void };

/** kubernetes-models/<group>/<version>/<Kind> (the core group has no segment of its own). */
function modelOf(apiVersion: string, kind: string): Model | undefined {
  let module: Record<string, Model>;
  try {
    module = require(`kubernetes-models/${apiVersion}/${kind}`);
  } catch (err) {
    if (/Cannot find module 'kubernetes-models\/?'|Cannot find module 'kubernetes-models\/package/.test((err as Error).message)) throw err;
    return undefined; // a kind the package does not have: an operator's
  }
  return module[kind] ?? (module as unknown as { default: Model }).default;
}

it('has kubernetes-models installed (devDependency)', () => {
  expect(() => require.resolve('kubernetes-models/package.json')).not.toThrow();
});

describe.each(['base', 'overlays/production'])('deploy/kubernetes/%s', (dir) => {
  const objects = build(join(ROOT, dir));

  it.each(objects.filter((o) => !o.apiVersion.includes('.')).map((o) => [`${o.kind} ${o.metadata.name}`, o] as const))(
    '%s is valid against the Kubernetes API schema',
    (_, o) => {
      const Model = modelOf(o.apiVersion, o.kind);
      expect(Model).toBeDefined();
      expect(() => new Model!(o).validate()).not.toThrow();
    },
  );
});

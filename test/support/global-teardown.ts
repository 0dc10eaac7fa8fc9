import type { Infra } from './infra';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __testInfra?: Infra }).__testInfra?.stop();
}

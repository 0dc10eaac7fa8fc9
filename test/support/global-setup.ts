import { join } from 'node:path';
import { loadConfig, register } from 'tsconfig-paths';
import { resolveInfra } from './infra';
import { sweepAbandonedTestState, TestState } from './test-state';

/**
 * Runs once per `jest` run, before any worker starts: finds (or starts) PostgreSQL,
 * RabbitMQ and Redis and hands their URLs to the workers through the environment, then
 * removes what test systems of killed runs left on them (see test-state.ts). Unit tests
 * need none of them, so a failure here is recorded for the integration tests to report.
 */
export default async function globalSetup(): Promise<void> {
  let infra: Awaited<ReturnType<typeof resolveInfra>>;
  try {
    infra = await resolveInfra();
    process.env.TEST_PG_SERVER_URL = infra.postgresUrl;
    process.env.TEST_AMQP_SERVER_URL = infra.amqpUrl;
    process.env.TEST_REDIS_URL = infra.redisUrl;
    (globalThis as { __testInfra?: typeof infra }).__testInfra = infra;
    process.stdout.write(`\ntest infrastructure: ${infra.source}\n`);
  } catch (err) {
    process.env.TEST_INFRA_ERROR = (err as Error).message;
    return;
  }
  // A clean-up that fails leaves what it found for the next run: it fails no test.
  await sweep(infra).catch((err) => process.stdout.write(`could not remove what killed test runs left behind: ${(err as Error).message}\n`));
}

async function sweep(infra: { amqpUrl: string; redisUrl: string }): Promise<void> {
  let remove: ((state: TestState) => Promise<void>) | undefined;
  let unregister = () => undefined as void;
  try {
    const removed = await sweepAbandonedTestState(async (state) => {
      if (!remove) {
        // The global setup runs outside jest's module registry, so without its moduleNameMapper:
        // the clean-up's imports (@app/contracts for the broker's names) resolve through tsconfig's
        // paths. Loaded only when there is something to remove.
        const config = loadConfig(join(__dirname, '..', '..'));
        if (config.resultType === 'failed') throw new Error(`tsconfig: ${config.message}`);
        unregister = register({ baseUrl: config.absoluteBaseUrl, paths: config.paths });
        const { removeTestState } = await import('./common');
        remove = (s) => removeTestState(infra, s);
      }
      await remove(state);
    });
    if (removed.length > 0) {
      process.stdout.write(`removed what ${removed.length} test system(s) of killed runs left behind: ${removed.map((s) => s.namespace ?? s.databaseUrl).join(', ')}\n`);
    }
  } finally {
    unregister();
  }
}

import { resolveInfra } from './infra';

/**
 * Runs once per `jest` run, before any worker starts: finds (or starts) PostgreSQL,
 * RabbitMQ and Redis and hands their URLs to the workers through the environment. Unit
 * tests need none of them, so a failure here is recorded for the integration tests to report.
 */
export default async function globalSetup(): Promise<void> {
  try {
    const infra = await resolveInfra();
    process.env.TEST_PG_SERVER_URL = infra.postgresUrl;
    process.env.TEST_AMQP_SERVER_URL = infra.amqpUrl;
    process.env.TEST_REDIS_URL = infra.redisUrl;
    (globalThis as { __testInfra?: typeof infra }).__testInfra = infra;
    process.stdout.write(`\ntest infrastructure: ${infra.source}\n`);
  } catch (err) {
    process.env.TEST_INFRA_ERROR = (err as Error).message;
  }
}

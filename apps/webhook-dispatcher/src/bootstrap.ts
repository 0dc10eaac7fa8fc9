import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { assertPostgresReachable, assertRabbitReachable, createLogger, NestPinoLogger } from '@app/common';
import { DispatcherConfig } from './config';
import { openDispatcherDatabase } from './database/database';
import { DispatcherModule } from './dispatcher.module';

/**
 * Starts the dispatcher (no HTTP: it consumes events and delivers them): checks its
 * dependencies, migrates its own tables, loads the webhook registrations, then consumes.
 * Used by main.ts and the tests.
 */
export async function startDispatcher(config: DispatcherConfig): Promise<INestApplicationContext> {
  const logger = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const timeout = config.STARTUP_TIMEOUT_SECONDS * 1000;
  await assertPostgresReachable(config.DATABASE_URL, timeout);
  await assertRabbitReachable(config.AMQP_URL, timeout);
  const db = await openDispatcherDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  try {
    const app = await NestFactory.createApplicationContext(DispatcherModule.forRoot(config, logger, db), {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    app.enableShutdownHooks();
    await app.init();
    return app;
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
}

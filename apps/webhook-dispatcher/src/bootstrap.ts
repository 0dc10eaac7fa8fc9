import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AmqpBroker, AmqpCommandServer, assertPostgresReachable, assertRabbitReachable, createLogger, NestPinoLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { DispatcherConfig } from './config';
import { openDispatcherDatabase } from './database/database';
import { DispatcherModule } from './dispatcher.module';

/** Commands of the delivery log one replica handles at once (reads by index, and queueing jobs). */
const COMMAND_PREFETCH = 16;

/**
 * Starts the dispatcher (no HTTP: it consumes events and delivers them, and serves the
 * delivery log's commands on a queue of its own, as the rooms service serves its own):
 * checks its dependencies, migrates its own tables, loads the webhook registrations, then
 * consumes. Used by main.ts and the tests.
 */
export async function startDispatcher(config: DispatcherConfig): Promise<INestMicroservice> {
  const logger = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const timeout = config.STARTUP_TIMEOUT_SECONDS * 1000;
  await assertPostgresReachable(config.DATABASE_URL, timeout);
  await assertRabbitReachable(config.AMQP_URL, timeout);
  const names = brokerNames(config.BROKER_NAMESPACE);
  const db = await openDispatcherDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  let broker: AmqpBroker | undefined;
  try {
    broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, timeout);
    const app = await NestFactory.createMicroservice(DispatcherModule.forRoot(config, logger, db, broker), {
      strategy: new AmqpCommandServer(broker, names.dispatcherCommandQueue, COMMAND_PREFETCH, logger),
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    app.enableShutdownHooks();
    // Initialises (registrations loaded, events consumed: see DispatcherLifecycle), then serves the commands.
    await app.listen();
    return app;
  } catch (err) {
    await broker?.close().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    throw err;
  }
}

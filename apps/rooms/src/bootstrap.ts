import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AmqpBroker, AmqpCommandServer, assertPostgresReachable, assertRabbitReachable, createLogger, NestPinoLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { RoomsConfig } from './config';
import { openDatabase } from './database/database';
import { RoomsAppModule } from './rooms-app.module';

/**
 * Starts the rooms service: checks its dependencies (with a message that says what to do
 * when one is down), creates and migrates the database, then serves commands.
 * Used by main.ts and by the integration tests alike.
 */
export async function startRoomsService(config: RoomsConfig): Promise<INestMicroservice> {
  const logger = createLogger('rooms', config.LOG_LEVEL);
  const timeout = config.STARTUP_TIMEOUT_SECONDS * 1000;
  await assertPostgresReachable(config.DATABASE_URL, timeout);
  await assertRabbitReachable(config.AMQP_URL, timeout);
  const names = brokerNames(config.BROKER_NAMESPACE);
  const db = await openDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  let broker: AmqpBroker;
  try {
    broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, timeout);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const app = await NestFactory.createMicroservice(RoomsAppModule.forRoot(config, logger, db, broker), {
    strategy: new AmqpCommandServer(broker, names.roomsCommandQueue, config.COMMAND_PREFETCH, logger),
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  await app.listen();
  logger.info({ queue: names.roomsCommandQueue }, 'rooms service ready');
  return app;
}

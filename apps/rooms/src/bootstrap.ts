import { NestFactory } from '@nestjs/core';
import { INestMicroservice } from '@nestjs/common';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { assertPostgresReachable, assertRabbitReachable, createLogger, NestPinoLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { RoomsConfig } from './config';
import { RoomsAppModule } from './rooms.module';

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
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(RoomsAppModule.forRoot(config, logger), {
    transport: Transport.RMQ,
    options: {
      urls: [config.AMQP_URL],
      queue: brokerNames(config.BROKER_NAMESPACE).roomsCommandQueue,
      queueOptions: { durable: true },
      prefetchCount: config.COMMAND_PREFETCH,
      noAck: true,
    },
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  await app.listen();
  logger.info({ queue: brokerNames(config.BROKER_NAMESPACE).roomsCommandQueue }, 'rooms service ready');
  return app;
}

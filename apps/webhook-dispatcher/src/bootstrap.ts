import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { assertRabbitReachable, createLogger, NestPinoLogger } from '@app/common';
import { DispatcherConfig } from './config';
import { DispatcherModule } from './dispatcher.module';

/** Starts the dispatcher (no HTTP: it only consumes). Used by main.ts and the tests. */
export async function startDispatcher(config: DispatcherConfig): Promise<INestApplicationContext> {
  const logger = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  await assertRabbitReachable(config.AMQP_URL, config.STARTUP_TIMEOUT_SECONDS * 1000);
  const app = await NestFactory.createApplicationContext(DispatcherModule.forRoot(config, logger), {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  await app.init();
  return app;
}

import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { assertRabbitReachable, assertRedisReachable, createLogger, NestPinoLogger } from '@app/common';
import { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';

/** Starts the HTTP gateway. Used by main.ts and by the integration tests alike. */
export async function startGateway(config: GatewayConfig): Promise<INestApplication> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const startupMs = config.STARTUP_TIMEOUT_SECONDS * 1000;
  await Promise.all([assertRabbitReachable(config.AMQP_URL, startupMs), assertRedisReachable(config.REDIS_URL, startupMs)]);
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(config, logger), {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: await app.getUrl() }, 'gateway listening');
  return app;
}

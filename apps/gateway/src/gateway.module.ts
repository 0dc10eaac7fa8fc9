import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { PassportModule } from '@nestjs/passport';
import { APP_LOGGER, AppLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { V1TokenStrategy } from './auth/token.strategy';
import { GATEWAY_CONFIG, GatewayConfig } from './config';
import { DocsController, HealthController } from './docs/docs.controller';
import { AccessLogMiddleware, BodyParserMiddleware } from './http-middleware';
import { ROOMS_RPC, RoomsClient } from './rooms-client/rooms-client';
import { V1Controller } from './v1/v1.controller';
import { V1ExceptionFilter } from './v1/v1-exception.filter';
import { V1RequestGuard } from './v1/v1-request.guard';

@Module({})
export class GatewayModule implements NestModule {
  static forRoot(config: GatewayConfig, logger: AppLogger): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PassportModule],
      controllers: [V1Controller, DocsController, HealthController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        {
          provide: ROOMS_RPC,
          useFactory: async () => {
            const client = ClientProxyFactory.create({
              transport: Transport.RMQ,
              options: {
                urls: [config.AMQP_URL],
                queue: brokerNames(config.BROKER_NAMESPACE).roomsCommandQueue,
                queueOptions: { durable: true },
                persistent: false,
              },
            });
            await client.connect();
            return client;
          },
        },
        RoomsClient,
        V1RequestGuard,
        V1TokenStrategy,
        { provide: APP_FILTER, useClass: V1ExceptionFilter },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AccessLogMiddleware, BodyParserMiddleware).forRoutes('*path');
  }
}

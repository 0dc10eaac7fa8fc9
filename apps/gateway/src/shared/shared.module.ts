import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { AmqpBroker, APP_LOGGER, AppLogger, connectRedis, OBSERVABILITY, Observability } from '@app/common';
import { brokerNames } from '@app/contracts';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { TokenAuthenticator } from './auth/token-authenticator';
import { AMQP_BROKER, DISPATCHER_RPC, REDIS_CLIENT, ROOMS_RPC } from './di-tokens';
import { DispatcherClient } from './dispatcher-client';
import { AuthFailureLimit } from './rate-limit/auth-failure-limit';
import { RequestRateLimiter } from './rate-limit/request-rate-limiter';
import { RoomsClient } from './rooms-client';

/** Closes the connections this module opened, once the HTTP server has stopped. */
@Injectable()
class SharedConnections implements OnApplicationShutdown {
  constructor(
    @Inject(AMQP_BROKER) private readonly broker: AmqpBroker,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.broker.close();
    this.redis.disconnect();
  }
}

/**
 * What every API of the gateway uses, and none owns: configuration and logger, the broker
 * and the rooms and dispatcher clients over it, token authentication with its cache, the v1 rate limiter and the failed authentications' limit
 * (the access log is a hook of the HTTP server: see bootstrap.ts). Nothing here knows an API version.
 */
@Global()
@Module({})
export class SharedModule {
  static forRoot(config: GatewayConfig, logger: AppLogger): DynamicModule {
    return {
      module: SharedModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        {
          provide: AMQP_BROKER,
          inject: [OBSERVABILITY],
          useFactory: ({ tracing }: Observability) => AmqpBroker.connect(
            config.AMQP_URL, brokerNames(config.BROKER_NAMESPACE), logger, config.STARTUP_TIMEOUT_SECONDS * 1000, { queueType: config.AMQP_QUEUE_TYPE, tracing },
          ),
        },
        {
          provide: ROOMS_RPC,
          inject: [AMQP_BROKER],
          useFactory: (broker: AmqpBroker) => broker.createRpcClient(broker.names.roomsCommandQueue, config.COMMAND_TIMEOUT_MS),
        },
        {
          provide: DISPATCHER_RPC,
          inject: [AMQP_BROKER],
          useFactory: (broker: AmqpBroker) => broker.createRpcClient(broker.names.dispatcherCommandQueue, config.COMMAND_TIMEOUT_MS),
        },
        { provide: REDIS_CLIENT, useFactory: () => connectRedis(config.REDIS_URL, logger) },
        {
          provide: RequestRateLimiter,
          inject: [REDIS_CLIENT],
          useFactory: (redis: Redis) => new RequestRateLimiter(redis, {
            limit: config.RATE_LIMIT_MAX,
            windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
            // Deployments (and parallel test stacks) sharing one Redis never share counters.
            keyPrefix: `${config.BROKER_NAMESPACE}:rl:v1`,
          }, logger),
        },
        {
          provide: AuthFailureLimit,
          inject: [REDIS_CLIENT],
          useFactory: (redis: Redis) => new AuthFailureLimit(new RequestRateLimiter(redis, {
            limit: config.AUTH_FAILURE_RATE_LIMIT_MAX,
            windowSeconds: config.AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS,
            keyPrefix: `${config.BROKER_NAMESPACE}:rl:auth-failure`,
          }, logger)),
        },
        RoomsClient,
        DispatcherClient,
        TokenAuthenticator,
        SharedConnections,
      ],
      exports: [GATEWAY_CONFIG, APP_LOGGER, AMQP_BROKER, REDIS_CLIENT, RoomsClient, DispatcherClient, TokenAuthenticator, RequestRateLimiter, AuthFailureLimit],
    };
  }
}

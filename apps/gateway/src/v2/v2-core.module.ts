import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AppLogger, APP_LOGGER } from '@app/common';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { REDIS_CLIENT } from '../shared/di-tokens';
import { RequestRateLimiter } from '../shared/rate-limit/request-rate-limiter';
import { V2AccessGuard } from './auth/v2-access.guard';
import { V2AuthGuard, V2TokenStrategy } from './auth/v2-token.strategy';
import { V2BodyGuard } from './http/v2-body.guard';
import { FILE_RATE_LIMITER, FLOOD_CONTROL, PUBLIC_RATE_LIMITER, V2_RATE_LIMITER } from './v2-di-tokens';
import { V2Filter } from './v2.filter';

/** The machinery every v2 resource module uses: auth, limits, body, errors. */
@Module({
  imports: [PassportModule],
  providers: [
    V2TokenStrategy, V2AuthGuard, V2AccessGuard, V2BodyGuard, V2Filter,
    {
      provide: V2_RATE_LIMITER,
      inject: [GATEWAY_CONFIG, REDIS_CLIENT, APP_LOGGER],
      useFactory: (config: GatewayConfig, redis: Redis, logger: AppLogger) => new RequestRateLimiter(redis, {
        limit: config.V2_RATE_LIMIT_MAX, windowSeconds: config.V2_RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `${config.BROKER_NAMESPACE}:rl:v2`,
      }, logger),
    },
    {
      provide: FLOOD_CONTROL,
      inject: [GATEWAY_CONFIG, REDIS_CLIENT, APP_LOGGER],
      useFactory: (config: GatewayConfig, redis: Redis, logger: AppLogger) => new RequestRateLimiter(redis, {
        limit: config.FLOOD_CONTROL_MAX, windowSeconds: config.FLOOD_CONTROL_WINDOW_SECONDS, keyPrefix: `${config.BROKER_NAMESPACE}:fc:v2`,
      }, logger),
    },
    {
      provide: FILE_RATE_LIMITER,
      inject: [GATEWAY_CONFIG, REDIS_CLIENT, APP_LOGGER],
      useFactory: (config: GatewayConfig, redis: Redis, logger: AppLogger) => new RequestRateLimiter(redis, {
        limit: config.FILE_RATE_LIMIT_MAX, windowSeconds: config.FILE_RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `${config.BROKER_NAMESPACE}:rl:files`,
      }, logger),
    },
    {
      provide: PUBLIC_RATE_LIMITER,
      inject: [GATEWAY_CONFIG, REDIS_CLIENT, APP_LOGGER],
      useFactory: (config: GatewayConfig, redis: Redis, logger: AppLogger) => new RequestRateLimiter(redis, {
        limit: config.PUBLIC_RATE_LIMIT_MAX, windowSeconds: config.PUBLIC_RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `${config.BROKER_NAMESPACE}:rl:public`,
      }, logger),
    },
  ],
  exports: [PassportModule, V2TokenStrategy, V2AuthGuard, V2AccessGuard, V2BodyGuard, V2Filter, V2_RATE_LIMITER, FLOOD_CONTROL, FILE_RATE_LIMITER, PUBLIC_RATE_LIMITER],
})
export class V2CoreModule {}

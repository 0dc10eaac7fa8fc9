import { Module } from '@nestjs/common';
import { AppLogger, APP_LOGGER } from '@app/common';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { REDIS_CLIENT } from '../../shared/di-tokens';
import { V2CoreModule } from '../v2-core.module';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { GetSession } from './get-session.usecase';
import { SessionController } from './session.controller';
import { SignIn } from './sign-in.usecase';
import { SignInThrottle } from './sign-in-throttle';
import { SignOut } from './sign-out.usecase';

/** `/v2/session`: the web console's sign-in session (a cookie), throttled in Redis. */
@Module({
  imports: [V2CoreModule],
  controllers: [SessionController],
  providers: [
    SignIn, GetSession, SignOut,
    {
      provide: SIGN_IN_THROTTLE,
      inject: [GATEWAY_CONFIG, REDIS_CLIENT, APP_LOGGER],
      useFactory: (config: GatewayConfig, redis: Redis, logger: AppLogger) => new SignInThrottle(redis, {
        perAccount: config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
        perAddress: config.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
        windowSeconds: Math.max(1, Math.ceil(config.SIGN_IN_WINDOW / 1000)),
      }, `${config.BROKER_NAMESPACE}:signin`, logger),
    },
  ],
})
export class V2SessionModule {}

import { Module } from '@nestjs/common';
import { AppLogger, APP_LOGGER } from '@app/common';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { REDIS_CLIENT } from '../../shared/di-tokens';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { V2CoreModule } from '../v2-core.module';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { GetSession } from './get-session.usecase';
import { SessionController } from './session.controller';
import { AcceptInvitation } from './accept-invitation.usecase';
import { InvitationController } from './invitation.controller';
import { SignIn } from './sign-in.usecase';
import { SignInThrottle } from './sign-in-throttle';
import { SignInThrottled } from './sign-in-throttled';
import { SignOut } from './sign-out.usecase';

/** `/v2/session`: the web console's sign-in session (a cookie), throttled in Redis; and `/v2/invitation/{token}`, which signs in too. */
@Module({
  imports: [V2CoreModule],
  controllers: [SessionController, InvitationController],
  providers: [
    SignIn, GetSession, SignOut, AcceptInvitation,
    SignInThrottled,
    {
      provide: SIGN_IN_THROTTLE,
      inject: [GATEWAY_CONFIG, REDIS_CLIENT, APP_LOGGER],
      useFactory: (config: GatewayConfig, redis: Redis, logger: AppLogger) => {
        const limiter = (name: string, limit: number, windowMs: number) => new RequestRateLimiter(redis, {
          limit, windowSeconds: Math.max(1, Math.ceil(windowMs / 1000)), keyPrefix: `${config.BROKER_NAMESPACE}:signin:${name}`,
        }, logger);
        return new SignInThrottle({
          accountAddress: limiter('account-address', config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS, config.SIGN_IN_WINDOW),
          account: limiter('account', config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES, config.SIGN_IN_ACCOUNT_WINDOW),
          address: limiter('address', config.SIGN_IN_MAX_FAILURES_PER_ADDRESS, config.SIGN_IN_WINDOW),
        });
      },
    },
  ],
})
export class V2SessionModule {}

import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { SignInV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import type { RequestOrigin } from '../http/v2-request';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { SessionAnswer } from './session-answer.interceptor';
import { openSession } from './open-session';
import { toSessionBody } from './session.presenter';
import type { SignInBody } from './session.schemas';
import { Budget, SignInThrottle } from './sign-in-throttle';
import { SignInThrottled } from './sign-in-throttled';

const REFUSED_BY: Record<Budget, string> = {
  accountAddress: 'of this account from this address',
  account: 'of this account',
  address: 'from this address',
};

/**
 * POST /v2/session. The guess is counted first (per account and address, per account, per
 * address: SignInThrottle, in Redis) and checked by the rooms service, which owns the users,
 * only if no budget is spent; a success gives its count back. The secret is made here and
 * only its hash is sent: the clear secret exists in this process and the browser's cookie alone.
 * A wrong address and a wrong password get the same answer.
 */
@Injectable()
export class SignIn {
  constructor(
    private readonly rooms: RoomsClient,
    @Inject(SIGN_IN_THROTTLE) private readonly throttle: SignInThrottle,
    private readonly throttled: SignInThrottled,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  execute(body: SignInBody, origin: RequestOrigin, trace?: Context): Promise<SessionAnswer<ReturnType<typeof toSessionBody>>> {
    return openSession({ throttle: this.throttle, throttled: this.throttled, config: this.config }, {
      account: body.email,
      accountName: body.email,
      tooMany: 'Too many failed sign-ins',
      refusedBy: REFUSED_BY,
      wrong: () => new ApiError(401, 'Wrong e-mail address or password.'),
      ask: async (sessionHash, ttlSeconds) => (await this.rooms.send(SignInV1, { email: body.email, password: body.password, sessionHash, ttlSeconds }, trace)).session,
    }, origin);
  }
}

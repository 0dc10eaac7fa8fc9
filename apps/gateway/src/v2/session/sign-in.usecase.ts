import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { generateApiToken, hashApiToken } from '@app/common';
import { SessionView, SignInV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import type { RequestOrigin } from '../http/v2-request';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { SessionAnswer } from './session-answer.interceptor';
import { isSecureContext, sessionCookie } from './session-cookie';
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
  private readonly ttlSeconds: number;

  constructor(
    private readonly rooms: RoomsClient,
    @Inject(SIGN_IN_THROTTLE) private readonly throttle: SignInThrottle,
    private readonly throttled: SignInThrottled,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.ttlSeconds = Math.floor(config.SESSION_TTL / 1000);
  }

  async execute(body: SignInBody, origin: RequestOrigin, trace?: Context): Promise<SessionAnswer<ReturnType<typeof toSessionBody>>> {
    const verdict = await this.throttle.take(body.email, origin.address);
    if (!verdict.allowed) {
      throw new ApiError(429, `Too many failed sign-ins ${REFUSED_BY[verdict.by]}: try again in ${verdict.retryAfterSeconds} seconds.`,
        { 'Retry-After': String(verdict.retryAfterSeconds) });
    }
    const { guess } = verdict;
    const secret = generateApiToken();
    let session: SessionView | null;
    try {
      ({ session } = await this.rooms.send(SignInV1, {
        email: body.email, password: body.password, sessionHash: hashApiToken(secret), ttlSeconds: this.ttlSeconds,
      }, trace));
    } catch (err) {
      // No answer says whether the password was right: the guess taught nothing, and is given back.
      await this.throttle.giveBack(guess);
      throw err;
    }
    if (!session) {
      for (const spent of this.throttle.failed(guess)) this.throttled.record({ ...spent, email: body.email, address: origin.address });
      throw new ApiError(401, 'Wrong e-mail address or password.');
    }
    await this.throttle.succeeded(guess);
    return {
      body: toSessionBody(session.user, secret, session.expires),
      setCookie: sessionCookie(secret, this.ttlSeconds, isSecureContext(this.config.PUBLIC_BASE_URL, Boolean(this.config.TLS_CERT_FILE), origin.protocol)),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { generateApiToken, hashApiToken } from '@app/common';
import { SignInV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import type { RequestOrigin } from '../http/v2-request';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { SessionAnswer } from './session-answer.interceptor';
import { isSecureContext, sessionCookie } from './session-cookie';
import { toSessionBody } from './session.presenter';
import type { SignInBody } from './session.schemas';
import { SignInThrottle } from './sign-in-throttle';
import { recordThrottled } from './throttle-audit';

/**
 * POST /v2/session. Throttled first (failures per account and per address, in Redis), then
 * checked by the rooms service, which owns the users. The secret is made here and only its
 * hash is sent: the clear secret exists in this process and the browser's cookie alone.
 * A wrong address and a wrong password get the same answer.
 */
@Injectable()
export class SignIn {
  private readonly ttlSeconds: number;

  constructor(
    private readonly rooms: RoomsClient,
    @Inject(SIGN_IN_THROTTLE) private readonly throttle: SignInThrottle,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.ttlSeconds = Math.floor(config.SESSION_TTL / 1000);
  }

  async execute(body: SignInBody, origin: RequestOrigin, trace?: Context): Promise<SessionAnswer<ReturnType<typeof toSessionBody>>> {
    const verdict = await this.throttle.verdict(body.email, origin.address);
    if (!verdict.allowed) {
      recordThrottled(this.rooms, body.email, origin.address, verdict.by);
      throw new ApiError(429, `Too many failed sign-ins from this ${verdict.by === 'account' ? 'account' : 'address'}: try again in ${verdict.retryAfterSeconds} seconds.`,
        { 'Retry-After': String(verdict.retryAfterSeconds) });
    }
    const secret = generateApiToken();
    const { session } = await this.rooms.send(SignInV1, {
      email: body.email, password: body.password, sessionHash: hashApiToken(secret), ttlSeconds: this.ttlSeconds,
    }, trace);
    if (!session) {
      await this.throttle.failed(body.email, origin.address);
      throw new ApiError(401, 'Wrong e-mail address or password.');
    }
    await this.throttle.succeeded(body.email);
    return {
      body: toSessionBody(session.user, secret, session.expires),
      setCookie: sessionCookie(secret, this.ttlSeconds, isSecureContext(this.config.PUBLIC_BASE_URL, Boolean(this.config.TLS_CERT_FILE), origin.protocol)),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { generateApiToken, hashApiToken } from '@app/common';
import { AcceptInvitationV1, SessionView } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import type { AcceptInvitationBody } from '../users/users.schemas';
import type { RequestOrigin } from '../http/v2-request';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { SessionAnswer } from './session-answer.interceptor';
import { isSecureContext, sessionCookie } from './session-cookie';
import { toSessionBody } from './session.presenter';
import { Budget, SignInThrottle } from './sign-in-throttle';
import { SignInThrottled } from './sign-in-throttled';

/** One answer for a link that never was, was used, or expired: which of them is not said. */
export const UNKNOWN_INVITATION = 'This invitation link is unknown, used or expired: ask a group admin for a new one.';

const REFUSED_BY: Record<Budget, string> = {
  accountAddress: 'with this link from this address',
  account: 'with this link',
  address: 'from this address',
};

/**
 * POST /v2/invitation/{token}: the person chooses their password and is signed in, as
 * POST /v2/session signs in (the same cookie and body). A try is counted as a sign-in guess
 * is (SignInThrottle: per link and address, per link, per address, the address's budget
 * shared with sign-ins), the link's hash standing for the account; a success gives it back.
 * Neither the link's secret nor the password is logged or told to the throttle's notice.
 */
@Injectable()
export class AcceptInvitation {
  private readonly ttlSeconds: number;

  constructor(
    private readonly rooms: RoomsClient,
    @Inject(SIGN_IN_THROTTLE) private readonly throttle: SignInThrottle,
    private readonly throttled: SignInThrottled,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.ttlSeconds = Math.floor(config.SESSION_TTL / 1000);
  }

  async execute(token: string, body: AcceptInvitationBody, origin: RequestOrigin, trace?: Context): Promise<SessionAnswer<ReturnType<typeof toSessionBody>>> {
    const tokenHash = hashApiToken(token);
    const verdict = await this.throttle.take(`invitation ${tokenHash}`, origin.address);
    if (!verdict.allowed) {
      throw new ApiError(429, `Too many tries ${REFUSED_BY[verdict.by]}: try again in ${verdict.retryAfterSeconds} seconds.`,
        { 'Retry-After': String(verdict.retryAfterSeconds) });
    }
    const { guess } = verdict;
    const secret = generateApiToken();
    let session: SessionView | null;
    try {
      ({ session } = await this.rooms.send(AcceptInvitationV1, {
        tokenHash, password: body.password, sessionHash: hashApiToken(secret), ttlSeconds: this.ttlSeconds, address: origin.address.slice(0, 64),
      }, trace));
    } catch (err) {
      // No answer (or a refusal of the password) says nothing of the link: the try is given back.
      await this.throttle.giveBack(guess);
      throw err;
    }
    if (!session) {
      for (const spent of this.throttle.failed(guess)) this.throttled.record({ ...spent, email: 'an invitation link', address: origin.address });
      throw new ApiError(404, UNKNOWN_INVITATION);
    }
    await this.throttle.succeeded(guess);
    return {
      body: toSessionBody(session.user, secret, session.expires),
      setCookie: sessionCookie(secret, this.ttlSeconds, isSecureContext(this.config.PUBLIC_BASE_URL, Boolean(this.config.TLS_CERT_FILE), origin.protocol)),
    };
  }
}

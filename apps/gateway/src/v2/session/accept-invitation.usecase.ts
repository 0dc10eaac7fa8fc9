import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { hashApiToken } from '@app/common';
import { AcceptInvitationV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import type { AcceptInvitationBody } from '../users/users.schemas';
import type { RequestOrigin } from '../http/v2-request';
import { SIGN_IN_THROTTLE } from './session-di-tokens';
import { SessionAnswer } from './session-answer.interceptor';
import { openSession } from './open-session';
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
  constructor(
    private readonly rooms: RoomsClient,
    @Inject(SIGN_IN_THROTTLE) private readonly throttle: SignInThrottle,
    private readonly throttled: SignInThrottled,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  execute(token: string, body: AcceptInvitationBody, origin: RequestOrigin, trace?: Context): Promise<SessionAnswer<ReturnType<typeof toSessionBody>>> {
    const tokenHash = hashApiToken(token);
    return openSession({ throttle: this.throttle, throttled: this.throttled, config: this.config }, {
      account: `invitation ${tokenHash}`,
      accountName: 'an invitation link',
      tooMany: 'Too many tries',
      refusedBy: REFUSED_BY,
      wrong: () => new ApiError(404, UNKNOWN_INVITATION),
      // No answer (or a refusal of the password) says nothing of the link: the try is given back.
      ask: async (sessionHash, ttlSeconds) => (await this.rooms.send(AcceptInvitationV1, {
        tokenHash, password: body.password, sessionHash, ttlSeconds, address: origin.address.slice(0, 64),
      }, trace)).session,
    }, origin);
  }
}

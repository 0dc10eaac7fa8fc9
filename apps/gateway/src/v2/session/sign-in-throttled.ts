import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import { RecordSignInThrottledV1 } from '@app/contracts';
import { RoomsClient } from '../../shared/rooms-client';
import type { Budget, SpentBudget } from './sign-in-throttle';

/** An account (from an address, from anywhere) or an address refused further sign-ins until its window resets. */
export interface SignInThrottledEvent extends SpentBudget {
  /** The e-mail address tried, as typed (never the password). */
  email: string;
  /** The client's address (TRUST_PROXY decides whether X-Forwarded-For is believed). */
  address: string;
}

const WHAT: Record<Budget, string> = {
  accountAddress: 'this account from this address',
  account: 'this account from every address',
  address: 'this address for every account',
};

const SCOPE: Record<Budget, 'account_address' | 'account' | 'address'> = { accountAddress: 'account_address', account: 'account', address: 'address' };

/**
 * Where a sign-in throttle that has just closed is told, once per budget and window (by the
 * failure that spent it, not by each refusal after it): the log line, and the audit log (the
 * rooms service, told without waiting: the answer is due whatever the log does). No secret
 * is given to it.
 */
@Injectable()
export class SignInThrottled {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger, private readonly rooms: RoomsClient) {}

  record(event: SignInThrottledEvent): void {
    this.logger.warn({
      event: 'sign_in_throttled', email: event.email, address: event.address, budget: event.by,
      limit: event.limit, windowSeconds: event.windowSeconds, retryAfterSeconds: event.retryAfterSeconds,
    }, `sign-in throttled: ${event.limit} failed sign-ins of ${WHAT[event.by]}; refused for ${event.retryAfterSeconds} s`);
    void this.rooms.send(RecordSignInThrottledV1, { email: event.email.slice(0, 254), address: event.address.slice(0, 64), scope: SCOPE[event.by] })
      .catch(() => undefined);
  }
}

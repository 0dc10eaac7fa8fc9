import { generateApiToken, hashApiToken } from '@app/common';
import type { SessionView } from '@app/contracts';
import type { GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import type { RequestOrigin } from '../http/v2-request';
import { SessionAnswer } from './session-answer.interceptor';
import { isSecureContext, sessionCookie } from './session-cookie';
import { toSessionBody } from './session.presenter';
import { Budget, SignInThrottle } from './sign-in-throttle';
import { SignInThrottled } from './sign-in-throttled';

/** What a way of signing in (a password, an invitation link) says of itself. */
export interface SessionTry {
  /** The throttle's account key (an e-mail address, a link's hash). */
  account: string;
  /** How the audit's throttled line names the account, never a secret ("an invitation link"). */
  accountName: string;
  /** The 429's words before the budget's: "Too many failed sign-ins". */
  tooMany: string;
  /** How each budget is named after those words ("of this account from this address"). */
  refusedBy: Record<Budget, string>;
  /** The refusal of a wrong guess (401 for a password, 404 for a link). */
  wrong: () => ApiError;
  /** Asks the rooms service: the session (its hash given), or null for a wrong guess. */
  ask: (sessionHash: string, ttlSeconds: number) => Promise<SessionView | null>;
}

export interface SessionOpening {
  throttle: SignInThrottle;
  throttled: SignInThrottled;
  config: GatewayConfig;
}

/**
 * One throttled try at a session, the same for every way in: the guess is counted first (in
 * Redis, per account and address, per account, per address) and asked of the rooms service
 * only if no budget is spent; a success gives its count back, and no answer (an outage) gives
 * the guess back, as it taught nothing. The session's secret is made here and only its hash is
 * sent: the clear secret exists in this process and the browser's cookie alone.
 */
export async function openSession(deps: SessionOpening, t: SessionTry, origin: RequestOrigin): Promise<SessionAnswer<ReturnType<typeof toSessionBody>>> {
  const verdict = await deps.throttle.take(t.account, origin.address);
  if (!verdict.allowed) {
    throw new ApiError(429, `${t.tooMany} ${t.refusedBy[verdict.by]}: try again in ${verdict.retryAfterSeconds} seconds.`,
      { 'Retry-After': String(verdict.retryAfterSeconds) });
  }
  const { guess } = verdict;
  const ttlSeconds = Math.floor(deps.config.SESSION_TTL / 1000);
  const secret = generateApiToken();
  let session: SessionView | null;
  try {
    session = await t.ask(hashApiToken(secret), ttlSeconds);
  } catch (err) {
    await deps.throttle.giveBack(guess);
    throw err;
  }
  if (!session) {
    for (const spent of deps.throttle.failed(guess)) deps.throttled.record({ ...spent, email: t.accountName, address: origin.address });
    throw t.wrong();
  }
  await deps.throttle.succeeded(guess);
  return {
    body: toSessionBody(session.user, secret, session.expires),
    setCookie: sessionCookie(secret, ttlSeconds, isSecureContext(deps.config.PUBLIC_BASE_URL, Boolean(deps.config.TLS_CERT_FILE), origin.protocol)),
  };
}

import { ApiError } from '../api-error';
import { addressKey } from './client-address';
import { RateLimitState, secondsUntil } from './rate-limit';
import type { RequestRateLimiter } from './request-rate-limiter';

/**
 * What presenting a token (or a session's secret) came to: the token, or none (no such token,
 * or not one the caller accepts); `refused`: the address is past the limit (the token is null).
 */
export interface AuthenticationVerdict<T> {
  token: T | null;
  refused?: RateLimitState;
}

/**
 * Failed token authentications per client address (AUTH_FAILURE_RATE_LIMIT_*): past the
 * limit, that address's requests that present a token this replica would have to look up are
 * refused (429; v1: 403) before the lookup, until the window resets, whether the token is
 * valid or not; a success counts nothing. A token this replica already knows to be valid (its
 * token cache holds it: no lookup, nothing to protect) is still served: the integrations that
 * work, on a host shared with one that retries a revoked token, keep working.
 *
 * The count is shared by every replica (RequestRateLimiter, in Redis), but it is only taken
 * after a failure: a request with a valid token pays no Redis round trip for it. What a
 * replica refuses before the lookup is its own memory of the addresses it saw go past the
 * limit (until their window resets). So another replica still serves a valid token from such
 * an address, and looks up one more unknown token from it, whose count (past the limit)
 * refuses it and teaches that replica too: an address gets at most one extra lookup per
 * replica and window beyond the limit.
 */
export class AuthFailureLimit {
  /** Address key -> the count that went past the limit, refused until its `reset`. */
  private readonly refused = new Map<string, RateLimitState>();
  private readonly now: () => number;

  constructor(private readonly limiter: Pick<RequestRateLimiter, 'consume'>, now?: () => number) {
    this.now = now ?? Date.now;
  }

  /**
   * Looks up a presented token with `lookup` unless the client address (`ip`: req.ip, counted
   * by its addressKey) is refused, when only a token `known` without a lookup (the token
   * cache's) is served; a lookup that finds nothing, or a token that `accepts` refuses (a token
   * of another API), counts as a failure, and the failure that goes past the limit is refused
   * itself.
   */
  async authenticate<T>(
    ip: string | undefined, lookup: () => Promise<T | null>, accepts: (token: T) => boolean = () => true, known: () => T | null | undefined = () => undefined,
  ): Promise<AuthenticationVerdict<T>> {
    // While no address is refused (nearly always), a valid token costs not even the address's parsing.
    const refused = this.refused.size === 0 ? undefined : this.refusal(addressKey(ip));
    if (refused) {
      const cached = known();
      return cached && accepts(cached) ? { token: cached } : { token: null, refused };
    }
    const token = await lookup();
    if (token !== null && accepts(token)) return { token };
    const address = addressKey(ip);
    const count = await this.limiter.consume(address);
    if (!count.exceeded) return { token: null };
    this.forgetEnded();
    this.refused.set(address, count);
    return { token: null, refused: count };
  }

  /** The count this replica refuses `address` by, while its window lasts. */
  private refusal(address: string): RateLimitState | undefined {
    const state = this.refused.get(address);
    if (state && state.reset * 1000 <= this.now()) {
      this.refused.delete(address);
      return undefined;
    }
    return state;
  }

  /** Refused addresses are added one per address and window: dropping the ended ones then keeps the map small. */
  private forgetEnded(): void {
    const now = this.now();
    for (const [address, state] of this.refused) if (state.reset * 1000 <= now) this.refused.delete(address);
  }
}

/** The 429 of an address past AUTH_FAILURE_RATE_LIMIT_* (each API adds the count's headers in its own spelling). */
export function tooManyUnknownTokens(state: RateLimitState, nowMs = Date.now()): ApiError {
  return new ApiError(429, unknownTokensRefusal(state, nowMs), { 'Retry-After': String(secondsUntil(state.reset, nowMs)) });
}

/** The words of that refusal (v1 says them with its own status: its clients know no 429). */
export function unknownTokensRefusal(state: RateLimitState, nowMs = Date.now()): string {
  return `Too many requests with unknown tokens from this address: try again in ${secondsUntil(state.reset, nowMs)} seconds.`;
}

/** Fixed-window rate limiting arithmetic: what the headers say and whether to refuse. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** UNIX seconds at which the window resets. */
  reset: number;
  exceeded: boolean;
}

export function rateLimitState(limit: number, count: number, windowResetsAt: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), reset: windowResetsAt, exceeded: count > limit };
}

/** The end of the current fixed window, for responses that counted nothing (no token). */
export function currentWindowEnd(windowSeconds: number, nowMs = Date.now()): number {
  const now = Math.floor(nowMs / 1000);
  return (Math.floor(now / windowSeconds) + 1) * windowSeconds;
}

/** Seconds until a window that ends at `reset` (UNIX seconds), as Retry-After says it: whole, at least 1. */
export function secondsUntil(reset: number, nowMs = Date.now()): number {
  return Math.max(1, Math.ceil(reset - nowMs / 1000));
}

/** The Retry-After header of a refusal by a count whose window ends at `reset`. */
export function retryAfter(state: Pick<RateLimitState, 'reset'>, nowMs = Date.now()): { 'Retry-After': string } {
  return { 'Retry-After': String(secondsUntil(state.reset, nowMs)) };
}

export function rateLimitHeaders(state: Pick<RateLimitState, 'limit' | 'remaining' | 'reset'>): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
}

/** A window's length as the 429 messages say it: "1 minute", "5 minutes", "90 seconds". */
export function windowText(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;
}

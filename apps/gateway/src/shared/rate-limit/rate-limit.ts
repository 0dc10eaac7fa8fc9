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

export function rateLimitHeaders(state: Pick<RateLimitState, 'limit' | 'remaining' | 'reset'>): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
}

import type { RateLimitState } from '../../shared/rate-limit/rate-limit';

/** v2's rate-limit headers (as HipChat spelled them): on every answer to a token. */
export function v2RateLimitHeaders(s: RateLimitState): Record<string, string> {
  return { 'X-Ratelimit-Limit': String(s.limit), 'X-Ratelimit-Remaining': String(s.remaining), 'X-Ratelimit-Reset': String(s.reset) };
}

/** Flood control headers: on every message or notification sent to a room. */
export function floodHeaders(s: RateLimitState): Record<string, string> {
  return { 'X-FloodControl-Limit': String(s.limit), 'X-FloodControl-Remaining': String(s.remaining), 'X-FloodControl-Reset': String(s.reset) };
}

import { currentWindowEnd, rateLimitHeaders, rateLimitState, retryAfter, secondsUntil } from './rate-limit';

describe('rate limit arithmetic', () => {
  it('counts down to zero and refuses only past the limit', () => {
    expect(rateLimitState(100, 1, 1_700_000_100)).toEqual({ limit: 100, remaining: 99, reset: 1_700_000_100, exceeded: false });
    expect(rateLimitState(100, 100, 5)).toMatchObject({ remaining: 0, exceeded: false });
    expect(rateLimitState(100, 101, 5)).toMatchObject({ remaining: 0, exceeded: true });
    expect(rateLimitState(3, 250, 5)).toMatchObject({ remaining: 0, exceeded: true });
  });

  it('aligns windows on multiples of their length', () => {
    expect(currentWindowEnd(300, 1_700_000_000_000)).toBe(1_700_000_100);
    expect(currentWindowEnd(300, 1_700_000_099_999)).toBe(1_700_000_100);
    expect(currentWindowEnd(300, 1_700_000_100_000)).toBe(1_700_000_400);
  });

  it('says the seconds left in a window as Retry-After does: whole, rounded up, at least 1', () => {
    expect(secondsUntil(1_700_000_100, 1_700_000_040_500)).toBe(60);
    expect(secondsUntil(1_700_000_100, 1_700_000_100_000)).toBe(1);
    expect(retryAfter({ reset: 1_700_000_100 }, 1_700_000_040_500)).toEqual({ 'Retry-After': '60' });
  });

  it('renders the three headers as strings', () => {
    expect(rateLimitHeaders({ limit: 100, remaining: 7, reset: 42 })).toEqual({
      'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': '42',
    });
  });
});

import { AuthFailureLimit, tooManyUnknownTokens } from './auth-failure-limit';
import { currentWindowEnd, rateLimitState } from './rate-limit';

describe('AuthFailureLimit', () => {
  const WINDOW = 300;
  let now: number;
  let counts: Map<string, number>;
  let limit: AuthFailureLimit;
  const consume = jest.fn(async (subject: string | number) => {
    const key = String(subject);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return rateLimitState(2, counts.get(key)!, currentWindowEnd(WINDOW, now));
  });
  const known = (secret: string) => async () => (secret.startsWith('good') ? { secret } : null);

  beforeEach(() => {
    now = 1_700_000_050_000;
    counts = new Map();
    consume.mockClear();
    limit = new AuthFailureLimit({ consume }, () => now);
  });

  it('counts nothing for a token it finds: a valid token pays no count', async () => {
    expect(await limit.authenticate('203.0.113.7', known('good-1'))).toEqual({ token: { secret: 'good-1' } });
    expect(consume).not.toHaveBeenCalled();
  });

  it('counts each failure of an address, and refuses the one past the limit', async () => {
    expect(await limit.authenticate('203.0.113.7', known('bad-1'))).toEqual({ token: null });
    expect(await limit.authenticate('203.0.113.7', known('bad-2'))).toEqual({ token: null });
    expect(await limit.authenticate('203.0.113.7', known('bad-3'))).toEqual({ token: null, refused: expect.objectContaining({ remaining: 0, exceeded: true, reset: 1_700_000_100 }) });
    expect(consume).toHaveBeenCalledWith('203.0.113.7');
  });

  it('counts a token the caller does not accept (another API\'s) as a failure', async () => {
    expect(await limit.authenticate('203.0.113.7', known('good-v1'), () => false)).toEqual({ token: null });
    expect(consume).toHaveBeenCalledTimes(1);
  });

  it('past the limit, refuses every token from that address before looking it up, until the window resets', async () => {
    for (let i = 0; i < 3; i++) await limit.authenticate('203.0.113.7', known('bad'));
    const lookup = jest.fn(known('good-1'));
    expect(await limit.authenticate('203.0.113.7', lookup)).toMatchObject({ token: null, refused: { reset: 1_700_000_100 } });
    expect(lookup).not.toHaveBeenCalled();
    expect(await limit.authenticate('198.51.100.1', known('good-2'))).toEqual({ token: { secret: 'good-2' } });

    now = 1_700_000_100_000;
    expect(await limit.authenticate('203.0.113.7', lookup)).toEqual({ token: { secret: 'good-1' } });
  });

  it('past the limit, still serves a token the cache knows valid (no lookup), but not one it knows unknown, nor another API\'s', async () => {
    for (let i = 0; i < 3; i++) await limit.authenticate('203.0.113.7', known('bad'));
    const lookup = jest.fn(known('good-1'));
    expect(await limit.authenticate('203.0.113.7', lookup, () => true, () => ({ secret: 'good-1' }))).toEqual({ token: { secret: 'good-1' } });
    expect(await limit.authenticate('203.0.113.7', lookup, () => true, () => null)).toMatchObject({ token: null, refused: { exceeded: true } });
    expect(await limit.authenticate('203.0.113.7', lookup, () => false, () => ({ secret: 'good-v1' }))).toMatchObject({ token: null, refused: { exceeded: true } });
    expect(lookup).not.toHaveBeenCalled();
    expect(consume).toHaveBeenCalledTimes(3);
  });

  it('counts an address as the other limits do: an IPv6 client by its /64', async () => {
    for (let i = 1; i <= 3; i++) await limit.authenticate(`2001:db8:1:2::${i}`, known('bad'));
    expect(consume).toHaveBeenCalledWith('2001:db8:1:2::/64');
    expect(await limit.authenticate('2001:db8:1:2::99', known('good-1'))).toMatchObject({ token: null, refused: { exceeded: true } });
  });

  it('words the refusal with the seconds left, in Retry-After too', () => {
    const error = tooManyUnknownTokens(rateLimitState(2, 3, 1_700_000_100), 1_700_000_040_500);
    expect(error.status).toBe(429);
    expect(error.message).toBe('Too many requests with unknown tokens from this address: try again in 60 seconds.');
    expect(error.headers).toEqual({ 'Retry-After': '60' });
  });
});

import { createLogger } from '@app/common';
import Redis from 'ioredis';
import type { RateLimitState } from '../../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { accountKey, Budget, refusingBudget, SignInThrottle } from './sign-in-throttle';

const NOW = 1_700_000_050_000;
const state = (count: number, limit: number, reset: number): RateLimitState => ({ limit, remaining: Math.max(0, limit - count), reset, exceeded: count > limit });

describe('refusingBudget', () => {
  const within = { accountAddress: state(5, 5, 1_700_000_100), account: state(49, 50, 1_700_000_400), address: state(1, 50, 1_700_000_100) };

  it('lets a guess through while every count, this guess included, is within its limit', () => {
    expect(refusingBudget(within, NOW)).toBeNull();
  });

  it('refuses past any limit, until that window resets (whole seconds, rounded up)', () => {
    expect(refusingBudget({ ...within, accountAddress: state(6, 5, 1_700_000_100) }, NOW)).toEqual({ by: 'accountAddress', retryAfterSeconds: 50 });
    expect(refusingBudget({ ...within, address: state(51, 50, 1_700_000_050) }, NOW + 1)).toEqual({ by: 'address', retryAfterSeconds: 1 });
  });

  it('names the refusing budget that resets last', () => {
    expect(refusingBudget({ ...within, accountAddress: state(6, 5, 1_700_000_100), account: state(51, 50, 1_700_000_400) }, NOW))
      .toEqual({ by: 'account', retryAfterSeconds: 350 });
  });
});

describe('accountKey', () => {
  it('is the same for any case or surrounding space of the address, and does not contain it', () => {
    expect(accountKey(' Ada@Example.com')).toBe(accountKey('ada@example.com'));
    expect(accountKey('ada@example.com')).not.toContain('ada');
    expect(accountKey('ada@example.com')).not.toBe(accountKey('bob@example.com'));
  });
});

/**
 * On the limiters' in-memory counts (a Redis that is never reached), which count as the Redis
 * ones do: one atomic increment per guess and budget.
 */
describe('SignInThrottle', () => {
  let redis: Redis;
  let now: number;
  let throttle: SignInThrottle;
  const logger = createLogger('test', 'silent');

  beforeEach(() => {
    redis = new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    now = NOW;
    const limiter = (name: string, limit: number, windowSeconds: number) =>
      new RequestRateLimiter(redis, { limit, windowSeconds, keyPrefix: `t:si:${name}`, now: () => now }, logger);
    throttle = new SignInThrottle({ accountAddress: limiter('aa', 3, 900), account: limiter('a', 7, 3600), address: limiter('ad', 20, 900) }, () => now);
  });
  afterEach(() => redis.disconnect());

  const guesses = async (count: number, email: string, address: string) => Promise.all(Array.from({ length: count }, () => throttle.take(email, address)));

  it('lets no more concurrent guesses through than the budget of the account from the address, and refuses the others with Retry-After', async () => {
    const verdicts = await guesses(20, 'ada@example.com', '203.0.113.7');
    const allowed = verdicts.filter((v) => v.allowed);
    expect(allowed).toHaveLength(3);
    expect(verdicts.filter((v) => !v.allowed)).toEqual(Array(17).fill({ allowed: false, by: 'accountAddress', retryAfterSeconds: 50 }));
    for (const v of allowed) if (v.allowed) throttle.failed(v.guess);
    // The refused guesses never touched the account-wide count: the account from elsewhere is not charged for them.
    expect((await guesses(4, 'ada@example.com', '198.51.100.1')).filter((v) => v.allowed)).toHaveLength(3);
    expect(await throttle.take('Ada@Example.com', '203.0.113.7')).toMatchObject({ allowed: false, by: 'accountAddress' });
  });

  it('never lets guesses refused at one address hold the account-wide count up for the others', async () => {
    const flood = guesses(40, 'ada@example.com', '203.0.113.7');
    const elsewhere = throttle.take('ada@example.com', '198.51.100.1');
    await flood;
    expect(await elsewhere).toMatchObject({ allowed: true });
  });

  it('refuses the account from every address once the account-wide budget is spent', async () => {
    for (const address of ['10.0.0.1', '10.0.0.2']) await guesses(3, 'ada@example.com', address);
    expect(await throttle.take('ada@example.com', '10.0.0.3')).toMatchObject({ allowed: true });
    expect(await throttle.take('ada@example.com', '10.0.0.4')).toEqual({ allowed: false, by: 'account', retryAfterSeconds: 2750 });
    expect(await throttle.take('bob@example.com', '10.0.0.4')).toMatchObject({ allowed: true });
  });

  it('counts an IPv6 client by its /64', async () => {
    await guesses(3, 'ada@example.com', '2001:db8::1');
    expect(await throttle.take('ada@example.com', '2001:db8::2')).toMatchObject({ allowed: false, by: 'accountAddress' });
  });

  it('tells which budget a failure has just spent, once', async () => {
    const spent: Budget[][] = [];
    for (let i = 0; i < 3; i++) {
      const v = await throttle.take('ada@example.com', '10.0.0.1');
      if (v.allowed) spent.push(throttle.failed(v.guess).map((s) => s.by));
    }
    expect(spent).toEqual([[], [], ['accountAddress']]);
  });

  it('on success gives the guess back and forgets the failures from that address', async () => {
    await guesses(2, 'ada@example.com', '10.0.0.1');
    const right = await throttle.take('ada@example.com', '10.0.0.1');
    if (!right.allowed) throw new Error('refused');
    await throttle.succeeded(right.guess);
    expect((await guesses(4, 'ada@example.com', '10.0.0.1')).filter((v) => v.allowed)).toHaveLength(3);
    // The account-wide count kept the 2 + 3 failures and not the success: 2 more from elsewhere.
    expect((await guesses(3, 'ada@example.com', '10.0.0.9')).filter((v) => v.allowed)).toHaveLength(2);
  });

  it('gives back a guess whose check never answered', async () => {
    for (let i = 0; i < 5; i++) {
      const v = await throttle.take('ada@example.com', '10.0.0.1');
      if (!v.allowed) throw new Error(`refused at ${i}`);
      await throttle.giveBack(v.guess);
    }
  });

  it('starts a new count when the window resets', async () => {
    await guesses(3, 'ada@example.com', '10.0.0.1');
    now += 50_000;
    expect(await throttle.take('ada@example.com', '10.0.0.1')).toMatchObject({ allowed: true });
  });
});

import Redis from 'ioredis';
import { RequestRateLimiter } from './request-rate-limiter';

/** A client that was never connected: every command fails at once, as during a Redis outage. */
const unreachableRedis = () => new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });

describe('RequestRateLimiter when Redis is unreachable', () => {
  const NOW = 1_700_000_050_000; // window of 300 s: 1_699_999_800 .. 1_700_000_100
  let warn: jest.Mock;
  let limiter: RequestRateLimiter;
  let now: number;
  let redis: Redis;

  beforeEach(() => {
    warn = jest.fn();
    now = NOW;
    redis = unreachableRedis();
    const logger = { warn, info: jest.fn(), debug: jest.fn(), error: jest.fn() };
    limiter = new RequestRateLimiter(redis, { limit: 2, windowSeconds: 300, keyPrefix: 'test:rl:v1', now: () => now }, logger as never);
  });
  afterEach(() => redis.disconnect());

  it('still answers, counting in memory: the limit holds per replica', async () => {
    expect(await limiter.consume(1)).toEqual({ limit: 2, remaining: 1, reset: 1_700_000_100, exceeded: false });
    expect(await limiter.consume(1)).toEqual({ limit: 2, remaining: 0, reset: 1_700_000_100, exceeded: false });
    expect(await limiter.consume(1)).toEqual({ limit: 2, remaining: 0, reset: 1_700_000_100, exceeded: true });
    expect(await limiter.consume(2)).toMatchObject({ remaining: 1, exceeded: false });
  });

  it('starts a new count in the next window', async () => {
    await limiter.consume(1);
    await limiter.consume(1);
    now += 50_000;
    expect(await limiter.consume(1)).toEqual({ limit: 2, remaining: 1, reset: 1_700_000_400, exceeded: false });
  });

  it('warns once, not on every request', async () => {
    for (let i = 0; i < 5; i++) await limiter.consume(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatch(/Redis unreachable/);
  });

  it('gives a count back in the window it was taken in', async () => {
    await limiter.consume(1);
    const second = await limiter.consume(1);
    expect(await limiter.refund(1, second)).toEqual({ limit: 2, remaining: 1, reset: 1_700_000_100, exceeded: false });
    expect(await limiter.consume(1)).toMatchObject({ remaining: 0, exceeded: false });
  });

  it('gives back a count past the limit: the subject is at the limit again, not beyond it', async () => {
    await limiter.consume(1);
    await limiter.consume(1);
    const third = await limiter.consume(1);
    expect(third.exceeded).toBe(true);
    expect(await limiter.refund(1, third)).toEqual({ limit: 2, remaining: 0, reset: 1_700_000_100, exceeded: false });
  });

  it('a refund in a later window leaves that window\'s count alone', async () => {
    const old = await limiter.consume(1);
    now += 300_000;
    await limiter.consume(1);
    await limiter.refund(1, old);
    expect(await limiter.consume(1)).toMatchObject({ remaining: 0, reset: 1_700_000_400 });
  });

  it('forgets a subject\'s count in the current window, and only that subject\'s', async () => {
    await limiter.consume(1);
    await limiter.consume(1);
    await limiter.consume(2);
    await limiter.forget(1);
    expect(await limiter.consume(1)).toMatchObject({ remaining: 1, exceeded: false });
    expect(await limiter.consume(2)).toMatchObject({ remaining: 0, exceeded: false });
  });

  it('shows the full count on answers that counted nothing', () => {
    expect(limiter.idle()).toEqual({ limit: 2, remaining: 2, reset: 1_700_000_100, exceeded: false });
  });
});

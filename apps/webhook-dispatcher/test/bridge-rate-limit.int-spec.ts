import Redis from 'ioredis';
import { createRedisClient } from '@app/common';
import { deleteRedisNamespace, testInfra, uniqueName } from '../../../test/support/common';
import { BridgeRateLimiter } from '../src/bridges/bridge-rate-limit';

const quiet = { warn: jest.fn(), info: jest.fn(), debug: jest.fn(), error: jest.fn() } as never;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two dispatcher replicas: each its own Redis connection and limiter, one key prefix. */
describe('BridgeRateLimiter shared through Redis (two replicas)', () => {
  const { redisUrl } = testInfra();
  let prefix: string;
  let clients: Redis[] = [];
  let a: BridgeRateLimiter;
  let b: BridgeRateLimiter;
  let inspect: Redis;

  const replica = async () => {
    const redis = createRedisClient(redisUrl, quiet);
    await redis.connect();
    clients.push(redis);
    return new BridgeRateLimiter(redis, { keyPrefix: prefix }, quiet);
  };

  beforeEach(async () => {
    // A prefix of this test's own: parallel runs and other tests never share a budget.
    prefix = uniqueName('bridge_rl');
    a = await replica();
    b = await replica();
    inspect = new Redis(redisUrl);
  });
  afterEach(async () => {
    for (const c of clients) c.disconnect();
    clients = [];
    inspect.disconnect();
    await deleteRedisNamespace(redisUrl, prefix);
  });

  it('shares one Slack budget (a post a second) between them, per bridge', async () => {
    expect(await a.reserve(1, 'slack')).toEqual({ waitMs: 0 });
    const { waitMs } = await b.reserve(1, 'slack');
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(1000);
    expect(await b.reserve(2, 'slack')).toEqual({ waitMs: 0 });
    // Asked again when it said, the other replica may post.
    await sleep(waitMs);
    let again = await b.reserve(1, 'slack');
    // Redis expires a key within a millisecond or so of its time.
    while (again.waitMs > 0) {
      await sleep(again.waitMs);
      again = await b.reserve(1, 'slack');
    }
    expect(again).toEqual({ waitMs: 0 });
    expect((await a.reserve(1, 'slack')).waitMs).toBeGreaterThan(0);
  });

  it('splits Discord\'s 5 posts per 2 s between them, and neither gets a sixth', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await (i % 2 ? b : a).reserve(7, 'discord'));
    expect(answers).toEqual(Array(5).fill({ waitMs: 0 }));
    for (const r of [a, b]) {
      const { waitMs } = await r.reserve(7, 'discord');
      expect(waitMs).toBeGreaterThan(0);
      expect(waitMs).toBeLessThanOrEqual(2000);
    }
    expect(await inspect.keys(`${prefix}:*`)).toEqual([`${prefix}:posts:5p2s:7`]);
  });

  it('makes the other replica wait out a penalty (a platform\'s Retry-After)', async () => {
    expect(await b.reserve(3, 'mattermost')).toEqual({ waitMs: 0 });
    await a.penalize(3, Date.now() + 3_000);
    const { waitMs } = await b.reserve(3, 'mattermost');
    expect(waitMs).toBeGreaterThan(2_000);
    expect(waitMs).toBeLessThanOrEqual(3_000);
    // A shorter penalty from the other replica does not shorten it.
    await b.penalize(3, Date.now() + 1_000);
    expect((await a.reserve(3, 'mattermost')).waitMs).toBeGreaterThan(1_500);
    // Other bridges are not held back.
    expect(await a.reserve(4, 'mattermost')).toEqual({ waitMs: 0 });
  });

  it('spends nothing of the longer windows while a shorter one makes it wait (Teams)', async () => {
    for (let i = 0; i < 4; i++) expect(await (i % 2 ? b : a).reserve(5, 'teams')).toEqual({ waitMs: 0 });
    for (let i = 0; i < 3; i++) expect((await (i % 2 ? b : a).reserve(5, 'teams')).waitMs).toBeGreaterThan(0);
    // The hour's count is the four posts made, not the three refused.
    expect(await inspect.get(`${prefix}:posts:100p3600s:5`)).toBe('4');
    expect(await inspect.get(`${prefix}:posts:60p30s:5`)).toBe('4');
    expect(await inspect.ttl(`${prefix}:posts:1800p86400s:5`)).toBeGreaterThan(86_000);
  });
});

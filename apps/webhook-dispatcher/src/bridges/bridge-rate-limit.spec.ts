import Redis from 'ioredis';
import { BridgeRateLimiter, createBridgeRateLimiter, POSTING_LIMITS, postingLimits, TEAMS_WORKFLOWS_LIMITS } from './bridge-rate-limit';

const logger = () => ({ warn: jest.fn(), info: jest.fn(), debug: jest.fn(), error: jest.fn() });

/** A client that was never connected: every command fails at once, as during a Redis outage. */
const unreachableRedis = () => new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });

describe('postingLimits', () => {
  it('keeps each platform\'s documented limit, the shortest window first', () => {
    expect(postingLimits('slack')).toEqual([{ posts: 1, seconds: 1 }]);
    expect(postingLimits('discord')).toEqual([{ posts: 5, seconds: 2 }]);
    expect(postingLimits('googlechat')).toEqual([{ posts: 1, seconds: 1 }]);
    expect(postingLimits('teams', 'https://example.webhook.office.com/webhookb2/a@b/IncomingWebhook/c/d')[0]).toEqual({ posts: 4, seconds: 1 });
    expect(postingLimits('teams', 'https://example.webhook.office.com/webhookb2/x')).toContainEqual({ posts: 100, seconds: 3_600 });
    for (const windows of Object.values(POSTING_LIMITS)) {
      expect(windows.map((w) => w.seconds)).toEqual([...windows.map((w) => w.seconds)].sort((a, b) => a - b));
    }
  });

  it('gives Teams Workflows URLs the bot limits, not the connectors\' 100 an hour', () => {
    expect(postingLimits('teams', 'https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x')).toBe(TEAMS_WORKFLOWS_LIMITS);
    expect(postingLimits('teams', 'https://default0a1b.2c.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/x')).toBe(TEAMS_WORKFLOWS_LIMITS);
    expect(postingLimits('teams', 'not a url')).toBe(POSTING_LIMITS.teams);
  });
});

describe('BridgeRateLimiter without Redis (REDIS_URL unset)', () => {
  it('says once, at start, that the limits are per replica', async () => {
    const log = logger();
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'unit' }, log as never);
    for (let i = 0; i < 5; i++) await limiter.reserve(1, 'mattermost');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0][0]).toMatch(/REDIS_URL is not set/);
  });

  it('keeps each bridge\'s budget in memory: Slack one post a second', async () => {
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'unit' }, logger() as never);
    expect(await limiter.reserve(1, 'slack')).toEqual({ waitMs: 0 });
    const { waitMs } = await limiter.reserve(1, 'slack');
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(1000);
    expect(await limiter.reserve(2, 'slack')).toEqual({ waitMs: 0 });
  });

  it('gives back the shorter windows\' counts when a longer one refuses (Teams: 4 a second, 60 per 30 s)', async () => {
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'unit' }, logger() as never);
    for (let i = 0; i < 4; i++) expect(await limiter.reserve(1, 'teams')).toEqual({ waitMs: 0 });
    expect((await limiter.reserve(1, 'teams')).waitMs).toBeGreaterThan(0);
  });

  it('waits out a penalty, never shortened by a shorter one', async () => {
    const now = Date.now();
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'unit', now: () => now }, logger() as never);
    await limiter.penalize(1, now + 2_500);
    await limiter.penalize(1, now + 1_000);
    const { waitMs } = await limiter.reserve(1, 'discord');
    expect(waitMs).toBeGreaterThan(2_000);
    expect(waitMs).toBeLessThanOrEqual(3_000);
    // A time already past changes nothing.
    await limiter.penalize(2, now - 1);
    expect(await limiter.reserve(2, 'discord')).toEqual({ waitMs: 0 });
  });
});

describe('BridgeRateLimiter while Redis is unreachable', () => {
  let redis: Redis;
  beforeEach(() => {
    redis = unreachableRedis();
  });
  afterEach(() => redis.disconnect());

  it('still answers, from this replica\'s memory, and warns once', async () => {
    const log = logger();
    const limiter = new BridgeRateLimiter(redis, { keyPrefix: 'unit' }, log as never);
    expect(log.warn).not.toHaveBeenCalled();
    expect(await limiter.reserve(1, 'slack')).toEqual({ waitMs: 0 });
    expect((await limiter.reserve(1, 'slack')).waitMs).toBeGreaterThan(0);
    await limiter.penalize(3, Date.now() + 5_000);
    expect((await limiter.reserve(3, 'slack')).waitMs).toBeGreaterThan(4_000);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0][1]).toMatch(/Redis unreachable/);
  });
});

describe('createBridgeRateLimiter', () => {
  it('starts and answers when REDIS_URL points at no server, saying why', async () => {
    const log = logger();
    // Port 1: nothing listens, the connection is refused at once.
    const { limiter, close } = createBridgeRateLimiter({ REDIS_URL: 'redis://127.0.0.1:1', BROKER_NAMESPACE: 'unit' }, log as never);
    try {
      expect(await limiter.reserve(1, 'slack')).toEqual({ waitMs: 0 });
      expect((await limiter.reserve(1, 'slack')).waitMs).toBeGreaterThan(0);
      expect(log.warn.mock.calls.map((c) => c[c.length - 1])).toContainEqual(expect.stringMatching(/Redis unreachable/));
    } finally {
      close();
    }
  });

  it('keeps the limits per replica when REDIS_URL is unset', async () => {
    const log = logger();
    const { limiter, close } = createBridgeRateLimiter({ BROKER_NAMESPACE: 'unit' }, log as never);
    expect(await limiter.reserve(1, 'googlechat')).toEqual({ waitMs: 0 });
    expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/REDIS_URL is not set/));
    close();
  });
});

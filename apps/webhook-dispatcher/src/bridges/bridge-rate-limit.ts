import { AppLogger, createRedisClient, RedisOutageNotice } from '@app/common';
import type { BridgeKind } from '@app/contracts';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** At most `posts` posts in any window of `seconds` (windows start at a bridge's first post in them). */
export interface PostingWindow {
  posts: number;
  seconds: number;
}

/**
 * Each platform's documented posting limit for one webhook (one bridge), shortest window
 * first. A platform that says more (Discord's X-RateLimit headers, a 429's Retry-After) is
 * heard through `penalize`, which overrides these.
 */
export const POSTING_LIMITS: Readonly<Record<BridgeKind, readonly PostingWindow[]>> = {
  // "Incoming webhooks: 1 per second, short bursts >1 allowed" (https://api.slack.com/apis/rate-limits).
  // How short a burst is not said: we keep to the sustained rate and let coalescing take up
  // a burst, rather than earn 429s by guessing.
  slack: [{ posts: 1, seconds: 1 }],
  // 5 requests per 2 s per webhook (https://discord.com/developers/docs/topics/rate-limits;
  // the bucket its headers report on every answer).
  discord: [{ posts: 5, seconds: 2 }],
  // Connectors: 4 per second, 60 per 30 s, 100 per hour, 150 per 2 h, 1,800 per day
  // (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#rate-limiting-for-connectors).
  teams: [
    { posts: 4, seconds: 1 }, { posts: 60, seconds: 30 }, { posts: 100, seconds: 3_600 }, { posts: 150, seconds: 7_200 }, { posts: 1_800, seconds: 86_400 },
  ],
  // 1 write per second per space, 60 per minute (https://developers.google.com/workspace/chat/limits).
  googlechat: [{ posts: 1, seconds: 1 }],
  // None documented for incoming webhooks (the server's own limiter, when on, answers 429): a generous default.
  mattermost: [{ posts: 10, seconds: 1 }],
  rocketchat: [{ posts: 10, seconds: 1 }],
  // Set by each homeserver (Synapse's default rc_message: 0.2/s, burst 10; bots are often
  // exempt): a generous default, and its 429 retry_after_ms through penalize.
  matrix: [{ posts: 10, seconds: 1 }],
};

/**
 * Teams Workflows (Power Automate) URLs post as the Workflows bot, under Teams' per-thread
 * bot limits (https://learn.microsoft.com/en-us/microsoftteams/platform/bots/how-to/rate-limit:
 * 7 per second, 60 per 30 s, 1,800 per hour), not the connectors' 100 per hour.
 */
export const TEAMS_WORKFLOWS_LIMITS: readonly PostingWindow[] = [{ posts: 4, seconds: 1 }, { posts: 60, seconds: 30 }, { posts: 1_800, seconds: 3_600 }];

/** The windows a bridge posts within: its platform's, or for Teams, those of the kind of URL it has. */
export function postingLimits(kind: BridgeKind, url?: string): readonly PostingWindow[] {
  if (kind === 'teams' && url !== undefined && isTeamsWorkflowsUrl(url)) return TEAMS_WORKFLOWS_LIMITS;
  return POSTING_LIMITS[kind];
}

function isTeamsWorkflowsUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host.endsWith('.logic.azure.com') || host.endsWith('.powerplatform.com');
  } catch {
    return false;
  }
}

export interface BridgeRateLimitOptions {
  /** Prefix of every Redis key, e.g. `<namespace>:bridge-rl:v1` (deployments sharing a Redis never collide). */
  keyPrefix: string;
  now?: () => number;
}

/** While Redis is unreachable, repeat the warning at most this often. */

type Store = 'shared' | 'local';

/**
 * Each bridge's posting budget, shared by every dispatcher replica through Redis
 * (rate-limiter-flexible, as the gateway's request limits: one atomic script per window
 * counted), so that N replicas together keep a platform's limit for one webhook.
 *
 * - `reserve`: 0 means a post was counted, post now; more means none was counted, ask again
 *   after that many ms (meanwhile the lane's waiting deliveries pile up, to be coalesced).
 * - `penalize`: the platform said "not before" (Retry-After, a 429's retry_after, Discord's
 *   spent bucket): every replica waits until then.
 *
 * Without Redis (REDIS_URL unset), or while it is unreachable, each replica keeps the limits
 * alone, in memory, and says so: a delivery never fails for want of Redis.
 */
export class BridgeRateLimiter {
  private readonly limiters = new Map<string, { shared: RateLimiterRedis | null; local: RateLimiterMemory }>();
  private readonly penalties: { shared: RateLimiterRedis | null; local: RateLimiterMemory };
  private readonly now: () => number;
  private readonly outage: RedisOutageNotice;

  constructor(private readonly redis: Redis | null, private readonly options: BridgeRateLimitOptions, private readonly logger: AppLogger) {
    this.now = options.now ?? Date.now;
    this.outage = new RedisOutageNotice(logger, {
      down: 'Redis unreachable: bridges\' posting limits are kept by each dispatcher replica alone until it answers again',
      back: 'Redis answers again: bridges\' posting limits are shared again',
    }, this.now);
    // A penalty is a key blocked until the platform's time (points 1: blocked is 2).
    this.penalties = this.limitersOf('penalty', { posts: 1, seconds: 1 });
    if (!redis) {
      logger.warn('REDIS_URL is not set: each dispatcher replica keeps the bridges\' posting limits alone (N replicas may post N times as fast)');
    }
  }

  /** Takes one post of the bridge's budget if every window has one left now (waitMs 0); else how long until one may. */
  async reserve(bridgeId: number, kind: BridgeKind, url?: string): Promise<{ waitMs: number }> {
    const windows = postingLimits(kind, url);
    try {
      const waitMs = await this.reserveIn('shared', bridgeId, windows);
      this.outage.recovered();
      return { waitMs };
    } catch (err) {
      this.outage.degraded(err);
      return { waitMs: await this.reserveIn('local', bridgeId, windows) };
    }
  }

  /**
   * No post of this bridge before `untilMs` (epoch ms), on any replica; a wait already set
   * that ends later is kept. Rounded up to whole seconds (Redis expiries here are in seconds).
   */
  async penalize(bridgeId: number, untilMs: number): Promise<void> {
    const ms = untilMs - this.now();
    if (!(ms > 0)) return;
    try {
      await this.penalizeIn('shared', bridgeId, ms);
      this.outage.recovered();
    } catch (err) {
      this.outage.degraded(err);
      await this.penalizeIn('local', bridgeId, ms);
    }
  }

  private async reserveIn(store: Store, bridgeId: number, windows: readonly PostingWindow[]): Promise<number> {
    const penalty = await this.pick(this.penalties, store).get(bridgeId);
    if (penalty && penalty.consumedPoints > 1 && penalty.msBeforeNext > 0) return penalty.msBeforeNext;
    const taken: Array<RateLimiterRedis | RateLimiterMemory> = [];
    for (const window of windows) {
      const limiter = this.pick(this.limitersOf('posts', window), store);
      try {
        await limiter.consume(bridgeId, 1);
        taken.push(limiter);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) throw outcome;
        // Not posting: what the shorter windows counted goes back, so waiting costs no budget.
        await Promise.all(taken.map((l) => l.reward(bridgeId, 1)));
        return Math.max(1, outcome.msBeforeNext);
      }
    }
    return 0;
  }

  private async penalizeIn(store: Store, bridgeId: number, ms: number): Promise<void> {
    const limiter = this.pick(this.penalties, store);
    const current = await limiter.get(bridgeId);
    if (current && current.consumedPoints > 1 && current.msBeforeNext >= ms) return;
    await limiter.block(bridgeId, Math.max(1, Math.ceil(ms / 1000)));
  }

  private limitersOf(purpose: string, window: PostingWindow): { shared: RateLimiterRedis | null; local: RateLimiterMemory } {
    const name = `${purpose}:${window.posts}p${window.seconds}s`;
    let found = this.limiters.get(name);
    if (!found) {
      const common = { points: window.posts, duration: window.seconds, keyPrefix: `${this.options.keyPrefix}:${name}` };
      found = {
        // Not the library's `insuranceLimiter`: we want to know (and say) when it answers.
        shared: this.redis ? new RateLimiterRedis({ ...common, storeClient: this.redis, rejectIfRedisNotReady: true }) : null,
        local: new RateLimiterMemory(common),
      };
      this.limiters.set(name, found);
    }
    return found;
  }

  private pick(l: { shared: RateLimiterRedis | null; local: RateLimiterMemory }, store: Store): RateLimiterRedis | RateLimiterMemory {
    // No Redis configured: "shared" is this replica's memory, and nothing is degraded.
    return store === 'shared' && l.shared ? l.shared : l.local;
  }

}

/**
 * The dispatcher's limiter: shared through REDIS_URL when set (connecting in the background:
 * the dispatcher starts, and delivers, while Redis is down), else per replica. `close` ends
 * the connection.
 */
export function createBridgeRateLimiter(
  config: { REDIS_URL?: string; BROKER_NAMESPACE: string },
  logger: AppLogger,
): { limiter: BridgeRateLimiter; close(): void } {
  const redis = config.REDIS_URL ? createRedisClient(config.REDIS_URL, logger) : null;
  if (redis) {
    redis.connect().catch((err: Error) => logger.warn({ err: err.message },
      'Redis (REDIS_URL) unreachable at start-up: bridges\' posting limits are kept per replica until it answers'));
  }
  // Deployments (and parallel test stacks) sharing one Redis never share budgets.
  const limiter = new BridgeRateLimiter(redis, { keyPrefix: `${config.BROKER_NAMESPACE}:bridge-rl:v1` }, logger);
  return { limiter, close: () => redis?.disconnect() };
}

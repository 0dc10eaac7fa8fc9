import { type AppLogger, RedisOutageNotice } from '@app/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { currentWindowEnd, RateLimitState, rateLimitState } from './rate-limit';

export interface RateLimitOptions {
  /** Requests allowed per window and token. */
  limit: number;
  windowSeconds: number;
  /** Prefix of every Redis key, e.g. `<namespace>:rl:v1` (so that deployments sharing a Redis never collide). */
  keyPrefix: string;
  now?: () => number;
}

/** While Redis is unreachable, repeat the warning at most this often. */

/**
 * Counts each token's requests in fixed windows aligned on multiples of the window length,
 * in Redis (rate-limiter-flexible: one atomic INCR-and-expire script per request), so that
 * every gateway replica shares one count and no PostgreSQL row is updated per request.
 *
 * A Redis outage must not fail requests: the in-memory limiter of this replica counts
 * instead (the limit then holds per replica), with a warning, until Redis answers again.
 */
export class RequestRateLimiter {
  private readonly shared: RateLimiterRedis;
  private readonly insurance: RateLimiterMemory;
  private readonly now: () => number;
  private readonly outage: RedisOutageNotice;

  constructor(redis: Redis, private readonly options: RateLimitOptions, private readonly logger: AppLogger) {
    this.now = options.now ?? Date.now;
    this.outage = new RedisOutageNotice(logger, {
      down: 'Redis unreachable: rate limits are counted by each gateway replica alone until it answers again',
      back: 'Redis answers again: rate limits are shared again',
    }, this.now);
    const common = { points: options.limit, duration: options.windowSeconds, keyPrefix: options.keyPrefix };
    // Not the library's `insuranceLimiter` option: we want to know (and say) when it answers.
    this.shared = new RateLimiterRedis({ ...common, storeClient: redis, rejectIfRedisNotReady: true });
    this.insurance = new RateLimiterMemory(common);
  }

  get limit(): number {
    return this.options.limit;
  }

  get windowSeconds(): number {
    return this.options.windowSeconds;
  }

  /** Counts one request of this token (or other subject: a room for flood control); `exceeded` past the limit (those keep counting). */
  async consume(tokenId: number | string): Promise<RateLimitState> {
    const nowMs = this.now();
    const reset = currentWindowEnd(this.options.windowSeconds, nowMs);
    const key = this.keyOf(tokenId, reset);
    // The key expires when its window ends (never 0: that would mean "never expire").
    const options = { customDuration: Math.max(1, reset - Math.floor(nowMs / 1000)) };
    let counted: RateLimiterRes;
    try {
      counted = await this.countIn(this.shared, key, options);
      this.outage.recovered();
    } catch (err) {
      this.outage.degraded(err);
      counted = await this.countIn(this.insurance, key, options);
    }
    return rateLimitState(this.options.limit, counted.consumedPoints, reset);
  }

  /**
   * Gives back one count that `consume` took for this subject (a send refused after it was
   * counted), in the window it was taken in, atomically (INCRBY -1 on the same key). A window
   * that has ended meanwhile is left alone in effect: its key is no longer read.
   */
  async refund(subject: number | string, counted: RateLimitState): Promise<RateLimitState> {
    const nowMs = this.now();
    const key = this.keyOf(subject, counted.reset);
    const options = { customDuration: Math.max(1, counted.reset - Math.floor(nowMs / 1000)) };
    let left: RateLimiterRes;
    try {
      left = await this.shared.reward(key, 1, options);
      this.outage.recovered();
    } catch (err) {
      this.outage.degraded(err);
      left = await this.insurance.reward(key, 1, options);
    }
    return rateLimitState(this.options.limit, Math.max(0, left.consumedPoints), counted.reset);
  }

  /**
   * Forgets this subject's count in the current window (a sign-in that succeeded forgets the
   * failures of its account from its address). While Redis is unreachable, the in-memory one.
   */
  async forget(subject: number | string): Promise<void> {
    const key = this.keyOf(subject, currentWindowEnd(this.options.windowSeconds, this.now()));
    try {
      await this.shared.delete(key);
      this.outage.recovered();
    } catch (err) {
      this.outage.degraded(err);
      await this.insurance.delete(key);
    }
  }

  /**
   * A subject's key for the window that ends at `reset`. The window's length is part of it:
   * two limiters of one prefix with windows of different lengths (a rolling change of the
   * setting; tests run gateways of one namespace with other windows) would otherwise share a
   * key whenever their windows end together (a minute's and an hour's at the top of every
   * hour), and count each other's requests.
   */
  private keyOf(subject: number | string, reset: number): string {
    return `${subject}:${this.options.windowSeconds}s:${reset}`;
  }

  /** The state shown on responses that counted nothing (no token, unknown token). */
  idle(): RateLimitState {
    return rateLimitState(this.options.limit, 0, currentWindowEnd(this.options.windowSeconds, this.now()));
  }

  /** The count, whether or not it is past the limit (the library rejects with it when past). */
  private async countIn(limiter: RateLimiterRedis | RateLimiterMemory, key: string, options: { customDuration: number }): Promise<RateLimiterRes> {
    try {
      return await limiter.consume(key, 1, options);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return outcome;
      throw outcome;
    }
  }

}

import { createHash } from 'node:crypto';
import type { AppLogger } from '@app/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface SignInLimits {
  /** Failures allowed per account (e-mail address) in a window. */
  perAccount: number;
  /** Failures allowed per client address in a window. */
  perAddress: number;
  windowSeconds: number;
}

/** Failures counted so far in a subject's window, and when that window ends. */
export interface FailureCount { failures: number; msBeforeReset: number }

export type ThrottleVerdict = { allowed: true } | { allowed: false; by: 'account' | 'address'; retryAfterSeconds: number };

/**
 * Whether a sign-in may be tried: not once either count has reached its limit, until the
 * later of the windows that refuse ends (Retry-After, whole seconds, at least 1).
 */
export function throttleVerdict(account: FailureCount | null, address: FailureCount | null, limits: SignInLimits): ThrottleVerdict {
  const refusing: Array<{ by: 'account' | 'address'; ms: number }> = [];
  if (account && account.failures >= limits.perAccount) refusing.push({ by: 'account', ms: account.msBeforeReset });
  if (address && address.failures >= limits.perAddress) refusing.push({ by: 'address', ms: address.msBeforeReset });
  if (refusing.length === 0) return { allowed: true };
  const longest = refusing.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { allowed: false, by: longest.by, retryAfterSeconds: Math.max(1, Math.ceil(longest.ms / 1000)) };
}

/** An account's key: the address lower-cased and hashed, so that no e-mail address rests in Redis. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex').slice(0, 32);
}

/** While Redis is unreachable, repeat the warning at most this often. */
const WARN_EVERY_MS = 60_000;

type Limiter = RateLimiterRedis | RateLimiterMemory;

/**
 * Counts failed sign-ins per account and per client address in Redis (rate-limiter-flexible;
 * each count's window starts at its first failure), so every gateway replica refuses alike.
 * A success forgets the account's failures (not the address's). While Redis is unreachable
 * each replica counts in memory instead (the limits then hold per replica), with a warning:
 * as for request rate limits, an outage of Redis must not lock everyone out.
 */
export class SignInThrottle {
  private readonly shared: { account: RateLimiterRedis; address: RateLimiterRedis };
  private readonly insurance: { account: RateLimiterMemory; address: RateLimiterMemory };
  private lastWarning = 0;
  private degraded = false;

  constructor(redis: Redis, readonly limits: SignInLimits, keyPrefix: string, private readonly logger: AppLogger) {
    const account = { points: limits.perAccount, duration: limits.windowSeconds, keyPrefix: `${keyPrefix}:account` };
    const address = { points: limits.perAddress, duration: limits.windowSeconds, keyPrefix: `${keyPrefix}:address` };
    this.shared = {
      account: new RateLimiterRedis({ ...account, storeClient: redis, rejectIfRedisNotReady: true }),
      address: new RateLimiterRedis({ ...address, storeClient: redis, rejectIfRedisNotReady: true }),
    };
    this.insurance = { account: new RateLimiterMemory(account), address: new RateLimiterMemory(address) };
  }

  async verdict(email: string, clientAddress: string): Promise<ThrottleVerdict> {
    const [account, address] = await this.both((l) => Promise.all([
      l.account.get(accountKey(email)), l.address.get(clientAddress),
    ]));
    return throttleVerdict(countOf(account), countOf(address), this.limits);
  }

  async failed(email: string, clientAddress: string): Promise<void> {
    await this.both((l) => Promise.all([l.account.penalty(accountKey(email), 1), l.address.penalty(clientAddress, 1)]));
  }

  async succeeded(email: string): Promise<void> {
    await this.both((l) => l.account.delete(accountKey(email)));
  }

  private async both<T>(work: (limiters: { account: Limiter; address: Limiter }) => Promise<T>): Promise<T> {
    try {
      const result = await work(this.shared);
      if (this.degraded) {
        this.degraded = false;
        this.logger.warn('Redis answers again: sign-in failures are counted across replicas again');
      }
      return result;
    } catch (err) {
      if (err instanceof RateLimiterRes) throw err;
      this.degraded = true;
      const now = Date.now();
      if (now - this.lastWarning >= WARN_EVERY_MS) {
        this.lastWarning = now;
        this.logger.warn({ err: (err as Error)?.message ?? String(err) },
          'Redis unreachable: sign-in failures are counted by each gateway replica alone until it answers again');
      }
      return work(this.insurance);
    }
  }
}

function countOf(res: RateLimiterRes | null): FailureCount | null {
  return res ? { failures: res.consumedPoints, msBeforeReset: res.msBeforeNext } : null;
}

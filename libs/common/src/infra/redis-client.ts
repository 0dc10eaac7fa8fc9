import Redis from 'ioredis';
import type { AppLogger } from '../logging';

/**
 * A Redis connection for rate limiters, set up to fail fast rather than wait: while Redis is
 * unreachable a command fails at once (no offline queue, no retries, a short timeout) and
 * the limiter counts in memory instead; ioredis keeps reconnecting meanwhile. Not yet
 * connected: `connect()` it (connectRedis), or let it connect in the background.
 */
export function createRedisClient(url: string, logger: AppLogger): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    // Counts of concurrent requests travel in one write: a syscall per request adds up.
    enableAutoPipelining: true,
  });
  // Without a listener an error event would be thrown; the limiter warns when it matters.
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'Redis connection error'));
  return redis;
}

/** createRedisClient, connected: fails when Redis cannot be reached now (the gateway needs it to start). */
export async function connectRedis(url: string, logger: AppLogger): Promise<Redis> {
  const redis = createRedisClient(url, logger);
  await redis.connect();
  return redis;
}

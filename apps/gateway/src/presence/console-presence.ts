import { randomUUID } from 'node:crypto';
import type { AppLogger } from '@app/common';
import type Redis from 'ioredis';

/** What presence asks the rooms service to do (EnterRoomV1 / ExitRoomV1 for the user themselves). */
export interface PresenceMoves {
  enter(roomId: number, userId: number): Promise<void>;
  exit(roomId: number, userId: number): Promise<void>;
}

export interface ConsolePresenceOptions {
  /** Prefix of the Redis keys (the broker namespace: deployments sharing a Redis stay apart). */
  namespace: string;
  /** A connection whose replica stopped refreshing it counts as closed after this long. */
  ttlMs: number;
}

/**
 * Removes a connection from a (room, user)'s set, drops expired ones, and answers how many are
 * left: one script, so two tabs closing at once cannot both miss the other.
 */
const CLOSE = `redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local left = redis.call('ZCARD', KEYS[1])
if left == 0 then redis.call('SREM', KEYS[2], KEYS[1]) end
return left`;

/**
 * Who has a room open in the console, across every gateway replica: each open live
 * connection of a signed-in person is a member of a Redis sorted set per (room, user), scored
 * by when it expires. The first one makes the user enter the room (room_enter); closing the
 * last one makes them exit (room_exit). Each replica refreshes its connections every third of
 * the TTL; a replica that dies stops refreshing, and the sweep (any replica, every third of
 * the TTL) exits its users once their connections have expired. Entering is idempotent, so
 * the first-or-not question need not be exact; exiting is re-checked after the exit, so a tab
 * opened meanwhile enters again.
 */
export class ConsolePresence {
  private readonly replica = randomUUID();
  private readonly open = new Map<string, { key: string; roomId: number; userId: number }>();
  private timer?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    private readonly redis: Redis,
    private readonly moves: PresenceMoves,
    private readonly logger: AppLogger,
    private readonly options: ConsolePresenceOptions,
  ) {}

  private keyOf(roomId: number, userId: number): string {
    return `${this.options.namespace}:presence:v1:${roomId}:${userId}`;
  }

  private get index(): string {
    return `${this.options.namespace}:presence:v1:keys`;
  }

  start(): void {
    const every = Math.max(1_000, Math.floor(this.options.ttlMs / 3));
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  /**
   * This replica stops (a deploy, a scale-down): its connections are not closed as such, as
   * their clients reconnect to another replica at once; left to expire, they make nobody
   * exit unless the person does not come back within the TTL.
   */
  onModuleDestroy(): void {
    this.stop();
  }

  stop(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.open.clear();
  }

  /** A live connection of `userId` to `roomId` opened: answers its handle for `closed`. */
  async opened(roomId: number, userId: number): Promise<string> {
    const id = `${this.replica}:${randomUUID()}`;
    const key = this.keyOf(roomId, userId);
    this.open.set(id, { key, roomId, userId });
    await this.redis.multi().zadd(key, Date.now() + this.options.ttlMs, id).sadd(this.index, key).exec();
    await this.moves.enter(roomId, userId);
    return id;
  }

  /** The connection closed: the user exits the room if no other connection of theirs has it open. */
  async closed(id: string): Promise<void> {
    const conn = this.open.get(id);
    if (!conn || this.stopping) return;
    this.open.delete(id);
    const left = Number(await this.redis.eval(CLOSE, 2, conn.key, this.index, id, Date.now()));
    if (left === 0) await this.exitUnlessReopened(conn.key, conn.roomId, conn.userId);
  }

  private async exitUnlessReopened(key: string, roomId: number, userId: number): Promise<void> {
    await this.moves.exit(roomId, userId);
    // A tab opened while the exit was on its way entered first: enter again.
    if (Number(await this.redis.zcount(key, Date.now(), '+inf')) > 0) await this.moves.enter(roomId, userId);
  }

  /** Refreshes this replica's connections and sweeps the ones whose replica is gone. */
  private async tick(): Promise<void> {
    try {
      const until = Date.now() + this.options.ttlMs;
      if (this.open.size > 0) {
        const refresh = this.redis.multi();
        for (const [id, c] of this.open) refresh.zadd(c.key, 'XX', until, id);
        await refresh.exec();
      }
      await this.sweep();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'presence: could not refresh or sweep (Redis unreachable?); will retry');
    }
  }

  /** Users whose every connection expired (their replica died) exit. */
  async sweep(): Promise<void> {
    const now = Date.now();
    for (const key of await this.redis.smembers(this.index)) {
      const left = Number(await this.redis.eval(CLOSE, 2, key, this.index, '', now));
      if (left > 0) continue;
      const [roomId, userId] = key.split(':').slice(-2).map(Number);
      if (Number.isInteger(roomId) && Number.isInteger(userId)) await this.exitUnlessReopened(key, roomId, userId).catch((err: Error) =>
        this.logger.warn({ err: err.message, roomId, userId }, 'presence: could not exit a user whose connections expired'));
    }
  }
}

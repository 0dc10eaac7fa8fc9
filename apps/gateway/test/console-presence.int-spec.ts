/**
 * Presence of people with a room open in the console, against the real Redis: what the
 * gateway asks of the rooms service (enter, exit) as connections open and close on two
 * replicas, and when a replica dies without closing its connections.
 */
import Redis from 'ioredis';
import { createLogger } from '@app/common';
import { ConsolePresence, PresenceMoves } from '../src/presence/console-presence';
import { deleteRedisNamespace, eventually, testInfra, uniqueName } from '../../../test/support/common';

/** The moves as the rooms service would receive them, in order. */
class Moves implements PresenceMoves {
  readonly log: string[] = [];
  async enter(roomId: number, userId: number) { this.log.push(`enter ${roomId}/${userId}`); }
  async exit(roomId: number, userId: number) { this.log.push(`exit ${roomId}/${userId}`); }
}

describe('console presence across gateway replicas', () => {
  const { redisUrl } = testInfra();
  const namespace = uniqueName('presence');
  const logger = createLogger('test', 'silent');
  let redis: Redis;
  let moves: Moves;
  let a: ConsolePresence;
  let b: ConsolePresence;

  beforeEach(() => {
    redis = new Redis(redisUrl);
    moves = new Moves();
    a = new ConsolePresence(redis, moves, logger, { namespace, ttlMs: 1_500 });
    b = new ConsolePresence(redis, moves, logger, { namespace, ttlMs: 1_500 });
  });
  afterEach(async () => {
    a.stop();
    b.stop();
    await deleteRedisNamespace(redisUrl, namespace);
    redis.disconnect();
  });

  it('enters on the first open connection and exits only when the last one, on any replica, closes', async () => {
    const one = await a.opened(7, 3);
    const two = await b.opened(7, 3);
    expect(moves.log).toEqual(['enter 7/3', 'enter 7/3']); // entering again changes nothing in the room
    await a.closed(one);
    expect(moves.log).toEqual(['enter 7/3', 'enter 7/3']);
    await b.closed(two);
    expect(moves.log).toEqual(['enter 7/3', 'enter 7/3', 'exit 7/3']);
    await b.closed(two); // closing twice does nothing more
    expect(moves.log.filter((m) => m.startsWith('exit'))).toHaveLength(1);
  });

  it('keeps rooms and people apart', async () => {
    const x = await a.opened(7, 3);
    const y = await a.opened(8, 3);
    const z = await b.opened(7, 4);
    await a.closed(x);
    await b.closed(z);
    expect(moves.log).toEqual(['enter 7/3', 'enter 8/3', 'enter 7/4', 'exit 7/3', 'exit 7/4']);
    await a.closed(y);
    expect(moves.log.at(-1)).toBe('exit 8/3');
  });

  it('keeps a connection its replica refreshes, and exits the user of a replica that stopped once it expires', async () => {
    a.start();
    b.start();
    await a.opened(9, 5);
    // Longer than the TTL: still there, as its replica refreshes it.
    await new Promise((r) => setTimeout(r, 2_500));
    await b.sweep();
    expect(moves.log).toEqual(['enter 9/5']);
    // The replica stops (or dies): no close, no more refreshes. Its connections make nobody
    // exit at once (the clients reconnect elsewhere); the other replica's sweep exits the user
    // once they have expired.
    a.stop();
    await b.sweep();
    expect(moves.log).toEqual(['enter 9/5']);
    await eventually(() => expect(moves.log).toEqual(['enter 9/5', 'exit 9/5']), 6_000);
  });

  it('enters again when a tab opened while the exit was on its way', async () => {
    const first = await a.opened(10, 6);
    // The exit is slow to arrive: a new tab opens meanwhile.
    const slow: PresenceMoves = {
      enter: (r, u) => moves.enter(r, u),
      exit: async (r, u) => { await b.opened(10, 6); await moves.exit(r, u); },
    };
    (a as unknown as { moves: PresenceMoves }).moves = slow;
    await a.closed(first);
    expect(moves.log).toEqual(['enter 10/6', 'enter 10/6', 'exit 10/6', 'enter 10/6']);
  });
});

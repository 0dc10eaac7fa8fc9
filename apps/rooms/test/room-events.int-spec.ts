import { CreateRoomV1, GetRoomEventsV1, SendNotificationV1, SetTopicV1 } from '@app/contracts';
import { ACTOR, eventually, EventCapture, RoomsRpc, RoomsStack, sleep, sql, startStack } from './support';

/**
 * The log live connections resume from (`room_events`, `rooms.room-events.v1`): the relay
 * logs each room event as it published it, in the statement that deletes its outbox row;
 * the command reads a room's events after a sequence, says whether the log still covers
 * it, and applies the history's access rule. Retention is 3 s here so that pruning shows.
 */
describe('the room events log (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let capture: EventCapture;
  let ownerId: number;

  beforeAll(async () => {
    stack = await startStack({ OUTBOX_POLL_MS: '200', LIVE_EVENTS_RETENTION: '3s' });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace, 'room.*.v2');
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    ownerId = (await rpc.createUser('Log Owner')).id;
  });
  afterAll(async () => {
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  const createRoom = async (name: string, privacy: 'public' | 'private' = 'public') => (await rpc.send(CreateRoomV1, {
    actor: ACTOR, name, owner: { id: ownerId }, privacy, topic: '', guestAccess: false,
  })).room;
  const notify = (roomId: number, message: string) => rpc.send(SendNotificationV1, {
    actor: ACTOR, room: { id: roomId }, from: 'API', message, messageFormat: 'text', notify: false, color: 'gray',
  });
  const events = (roomId: number, after: number | null, limit = 100, actor: Record<string, unknown> = ACTOR) =>
    rpc.send(GetRoomEventsV1, { room: { id: roomId }, actor: actor as never, after, limit });

  it('holds every published room event with the envelope and sequence the broker got, and pages after a sequence', async () => {
    const room = await createRoom('Logged');
    for (let i = 0; i < 5; i++) await notify(room.id, `n${i}`);
    await rpc.send(SetTopicV1, { actor: ACTOR, room: { id: room.id }, topic: 'logged', from: 'API' });
    const published = await eventually(() => {
      const mine = capture.events.filter((e) => (e.envelope.payload as any)?.room?.id === room.id);
      expect(mine).toHaveLength(7);
      return mine;
    });
    const all = await eventually(async () => {
      const reply = await events(room.id, 0);
      expect(reply.events).toHaveLength(7);
      return reply;
    });
    expect(all).toMatchObject({ roomId: room.id, lastSeq: 7, covered: true });
    expect(all.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // What a consumer of the exchange got, field for field (the order of the keys aside).
    expect(all.events.map((e) => ({ routingKey: e.routingKey, envelope: e.envelope })))
      .toEqual(published.map((e) => ({ routingKey: e.routingKey, envelope: e.envelope })));

    const page = await events(room.id, 2, 3);
    expect(page.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(page.covered).toBe(true);
    expect(await events(room.id, 7)).toMatchObject({ lastSeq: 7, covered: true, events: [] });
    // No Last-Event-ID: the room's id and where a new connection starts.
    expect(await rpc.send(GetRoomEventsV1, { room: { name: 'logged' }, actor: ACTOR, after: null, limit: 100 }))
      .toEqual({ roomId: room.id, lastSeq: 7, covered: true, events: [] });
  });

  it('forgets events older than LIVE_EVENTS_RETENTION, and says a resume from before them is no longer covered', async () => {
    const room = await createRoom('Pruned');
    await notify(room.id, 'old');
    await eventually(async () => expect((await events(room.id, 0)).lastSeq).toBe(2));
    await sleep(3_500);
    await notify(room.id, 'new');
    await eventually(async () => {
      const reply = await events(room.id, 0);
      expect(reply).toMatchObject({ lastSeq: 3, covered: false });
    }, 10_000);
    // Right after the pruned ones: still whole.
    const from2 = await events(room.id, 2);
    expect(from2).toMatchObject({ covered: true, events: [{ seq: 3 }] });
    // The last event itself aged out: nothing after it was missed.
    await sleep(3_500);
    await eventually(async () => expect((await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM room_events WHERE room_id = $1', [room.id]))[0].n).toBe(0));
    expect(await events(room.id, 3)).toMatchObject({ lastSeq: 3, covered: true, events: [] });
    expect(await events(room.id, 1)).toMatchObject({ lastSeq: 3, covered: false, events: [] });
  }, 30_000);

  it('applies the history\'s access rule: unknown room, a room token elsewhere, a private room\'s outsider', async () => {
    const room = await createRoom('Guarded', 'private');
    expect(await rpc.refused(GetRoomEventsV1, { room: { id: 999_999 }, actor: ACTOR, after: null, limit: 10 }))
      .toMatchObject({ code: 'not_found', reason: 'room_not_found' });
    expect(await rpc.refused(GetRoomEventsV1, { room: { id: room.id }, actor: { ...ACTOR, roomId: room.id + 1000 }, after: 0, limit: 10 }))
      .toMatchObject({ code: 'forbidden', reason: 'outside_token_room' });
    // To a private room's outsider the room does not exist: the same answer as an unknown room.
    const outsider = await rpc.createUser('Log Outsider');
    expect(await rpc.refused(GetRoomEventsV1, { room: { id: room.id }, actor: { ...ACTOR, userId: outsider.id }, after: null, limit: 10 }))
      .toMatchObject({ code: 'not_found', reason: 'room_not_found' });
  });
});

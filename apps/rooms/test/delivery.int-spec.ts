import { randomUUID } from 'node:crypto';
import { INestMicroservice } from '@nestjs/common';
import { RpcReply } from '@app/common';
import {
  CreateRoomV1, GetRoomV1, RoomNotificationSentV2, RoomTopicChangedV2, SendNotificationV1, SetTopicV1,
} from '@app/contracts';
import { ACTOR, eventually, EventCapture, RawCommands, RoomsRpc, RoomsStack, sleep, sql, startStack } from './support';

/**
 * How commands are delivered and applied: once per command id, never after their
 * deadline, acknowledged only once answered, group-committed on the hot path.
 */
describe('rooms service command delivery (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let raw: RawCommands;
  let capture: EventCapture;
  let ownerId: number;
  let current: INestMicroservice;

  beforeAll(async () => {
    stack = await startStack();
    current = stack.rooms;
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    raw = await RawCommands.open(stack.amqpUrl, stack.namespace);
    ownerId = (await rpc.createUser('Delivery Owner')).id;
  });
  afterAll(async () => {
    await raw?.close();
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  const createRoom = async (name: string) => (await rpc.send(CreateRoomV1, {
    actor: ACTOR, name, owner: { id: ownerId }, privacy: 'public', topic: 'initial', guestAccess: false,
  })).room;
  const notification = (roomId: number, message: string) => ({
    actor: ACTOR, room: { id: roomId }, from: 'Raw', message, messageFormat: 'text', notify: false, color: 'purple',
  });
  const rowsWith = async (message: string) =>
    (await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM messages WHERE body = $1', [message]))[0].n as number;
  const appliedWith = async (commandId: string) =>
    (await sql(stack.databaseUrl, 'SELECT reply FROM applied_commands WHERE command_id = $1', [commandId])).map((r) => r.reply);
  const notifiedWith = (message: string) => capture.of(RoomNotificationSentV2.routingKey, (e) => e.payload.message.message === message);

  describe('idempotency: a command id is applied once', () => {
    it('a second delivery of the same command id answers the first reply and writes nothing', async () => {
      const room = await createRoom('Once Only');
      const commandId = randomUUID();
      const first = await raw.send(SendNotificationV1.pattern, notification(room.id, 'exactly once'), { messageId: commandId });
      expect(first).toEqual({ ok: { messageId: expect.any(String), date: expect.any(String) } });
      expect(await appliedWith(commandId)).toEqual([(first as { ok: unknown }).ok]);

      const second = await raw.send(SendNotificationV1.pattern, notification(room.id, 'exactly once'), { messageId: commandId });
      expect(second).toEqual(first);
      await sleep(300);
      expect(await rowsWith('exactly once')).toBe(1);
      expect(notifiedWith('exactly once')).toHaveLength(1);
    });

    it('two deliveries of one command id at the same time apply it once, and both answer its reply', async () => {
      const room = await createRoom('Twice At Once');
      const commandId = randomUUID();
      const replies = await Promise.all([1, 2].map(() =>
        raw.send(SendNotificationV1.pattern, notification(room.id, 'concurrent duplicate'), { messageId: commandId })));
      expect(replies[0]).toEqual({ ok: { messageId: expect.any(String), date: expect.any(String) } });
      expect(replies[1]).toEqual(replies[0]);
      await sleep(300);
      expect(await rowsWith('concurrent duplicate')).toBe(1);
      expect(notifiedWith('concurrent duplicate')).toHaveLength(1);
    });

    it('holds for a command that is not group-committed (set-topic): one change, one event', async () => {
      const room = await createRoom('Topic Once');
      const commandId = randomUUID();
      const payload = { actor: ACTOR, room: { id: room.id }, topic: 'set once', from: 'Raw' };
      const first = await raw.send(SetTopicV1.pattern, payload, { messageId: commandId });
      expect(first).toEqual({ ok: {} });
      const version = (await rpc.send(GetRoomV1, { room: { id: room.id } })).room.version;
      expect(await raw.send(SetTopicV1.pattern, payload, { messageId: commandId })).toEqual(first);
      await sleep(300);
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.version).toBe(version);
      expect(capture.of(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id)).toHaveLength(1);
    });
  });

  describe('deadline: a command past its deadline is not applied', () => {
    it('answers unavailable/deadline_passed and writes no message, no event, no command id', async () => {
      const room = await createRoom('Too Late');
      const commandId = randomUUID();
      const reply = await raw.send(SendNotificationV1.pattern, notification(room.id, 'too late'), {
        messageId: commandId, deadline: Date.now() - 1_000,
      });
      expect(reply).toEqual({ error: { code: 'unavailable', reason: 'deadline_passed' } });
      await sleep(300);
      expect(await rowsWith('too late')).toBe(0);
      expect(notifiedWith('too late')).toEqual([]);
      expect(await appliedWith(commandId)).toEqual([]);
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.lastActive).toBeNull();

      // The same for a change that is not group-committed.
      expect(await raw.send(SetTopicV1.pattern, { actor: ACTOR, room: { id: room.id }, topic: 'late topic', from: 'Raw' }, {
        deadline: Date.now() - 1,
      })).toEqual({ error: { code: 'unavailable', reason: 'deadline_passed' } });
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.topic).toBe('initial');
      expect(capture.of(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id)).toEqual([]);

      // A deadline still ahead is applied.
      expect(await raw.send(SendNotificationV1.pattern, notification(room.id, 'in time'), { deadline: Date.now() + 5_000 }))
        .toEqual({ ok: expect.objectContaining({ messageId: expect.any(String) }) });
      expect(await rowsWith('in time')).toBe(1);
    });
  });

  describe('group commit', () => {
    it('applies 200 concurrent messages to one room, each answered and evented on its own', async () => {
      const room = await createRoom('Hot Room');
      const n = 200;
      const replies = await Promise.all(Array.from({ length: n }, (_, i) => rpc.send(SendNotificationV1, {
        actor: ACTOR, room: { id: room.id }, from: 'Load', message: `burst ${i}`, messageFormat: 'text', notify: false, color: 'gray',
      })));
      const ids = replies.map((r) => r.messageId);
      expect(new Set(ids).size).toBe(n);

      const rows = await sql<{ id: string; body: string; created_at: Date; tx: string }>(stack.databaseUrl,
        'SELECT id, body, created_at, xmin::text AS tx FROM messages WHERE room_id = $1', [room.id]);
      expect(rows).toHaveLength(n);
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      // Each reply names its own message.
      const bodyOf = new Map(rows.map((r) => [r.id, r.body]));
      replies.forEach((r, i) => expect(bodyOf.get(r.messageId)).toBe(`burst ${i}`));
      // Group-committed: fewer transactions than messages.
      expect(new Set(rows.map((r) => r.tx)).size).toBeLessThan(n);

      await eventually(() => expect(capture.of(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === room.id)).toHaveLength(n), 20_000);
      const events = capture.of(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === room.id);
      expect(events.map((e) => e.payload.message.id).sort()).toEqual([...ids].sort());
      expect(new Set(events.map((e) => e.id)).size).toBe(n);
      for (const e of events) expect(e.payload.message.message).toBe(bodyOf.get(e.payload.message.id));

      // The room's last activity is its newest message; no column is updated per message.
      const newest = new Date(Math.max(...rows.map((r) => r.created_at.getTime()))).toISOString();
      expect(replies.map((r) => r.date).sort().at(-1)).toBe(newest);
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.lastActive).toBe(newest);
      expect(await sql(stack.databaseUrl,
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'rooms' AND column_name = 'last_active_at'")).toEqual([]);
    });
  });

  describe('acknowledgement after handling', () => {
    it('a command sent while no rooms service runs waits in the queue and is applied and answered by the next one', async () => {
      const room = await createRoom('Waiting Room');
      // Applied now; delivered again (flagged redelivered) below.
      const appliedId = randomUUID();
      const applied = await raw.send(SendNotificationV1.pattern, notification(room.id, 'before the stop'), { messageId: appliedId });
      expect(applied).toEqual({ ok: expect.objectContaining({ messageId: expect.any(String) }) });

      await current.close();
      expect(await raw.waiting()).toBe(0);

      // 1. A command through the usual client: it waits for a consumer.
      const answered = rpc.send(SendNotificationV1, {
        actor: ACTOR, room: { id: room.id }, from: 'Patient', message: 'queued while down', messageFormat: 'text', notify: false, color: 'gray',
      }, 30_000);
      await eventually(async () => expect(await raw.waiting()).toBe(1));

      // 2. The already-applied command, taken by a consumer that died before acknowledging it:
      // the broker delivers it again, flagged redelivered.
      const redelivery = raw.send(SendNotificationV1.pattern, notification(room.id, 'before the stop'), { messageId: appliedId }, 30_000);
      // 3. A command whose deadline passes while it waits.
      const expiring = raw.send(SendNotificationV1.pattern, notification(room.id, 'expired while queued'), { deadline: Date.now() + 1_000 }, 30_000);
      await eventually(async () => expect(await raw.waiting()).toBe(3));
      const bounced = await raw.bounce(3);
      expect(bounced.map((b) => b.messageId)).toContain(appliedId);
      expect(bounced.every((b) => !b.redelivered)).toBe(true);
      await eventually(async () => expect(await raw.waiting()).toBe(3));
      await sleep(1_200);
      expect(await rowsWith('queued while down')).toBe(0);

      current = await stack.startReplica();
      const reply = await answered;
      expect(reply).toEqual({ messageId: expect.any(String), date: expect.any(String) });
      expect(await sql(stack.databaseUrl, 'SELECT body FROM messages WHERE id = $1', [reply.messageId])).toEqual([{ body: 'queued while down' }]);
      await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === reply.messageId);

      expect(await redelivery).toEqual(applied);
      expect(await rowsWith('before the stop')).toBe(1);

      expect(await expiring as RpcReply).toEqual({ error: { code: 'unavailable', reason: 'deadline_passed' } });
      expect(await rowsWith('expired while queued')).toBe(0);

      // Every command was acknowledged once answered: nothing waits, nothing is unacknowledged.
      await eventually(async () => expect(await raw.waiting()).toBe(0));
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.lastActive).toBe(reply.date);
    });
  });
});

import {
  CreateRoomV1, CreateUserV1, EventEnvelope, GetRoomV1, RoomCreatedV2, RoomNotificationSentV2, RoomTopicChangedV2, SendNotificationV1,
  SetTopicV1,
} from '@app/contracts';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MessageEntity } from '../src/database/entities';
import { insertOutbox, StagedEvent, stageEvent } from '../src/outbox/outbox';
import { MessageRepository, StoredMessage } from '../src/rooms/message.repository';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { ACTOR, eventually, EventCapture, RoomsRpc, RoomsStack, sleep, sql, startStack } from './support';

interface OutboxRow { id: string; event_id: string; routing_key: string; envelope: any }

/**
 * The version a notification must carry, from the topic changes of its room: that of the
 * last change emitted before the message was created (a message and a change of its room
 * exclude each other through the room's row lock, and both stamp their time once they
 * hold it). Times are milliseconds, so a message stamped in the same millisecond as a
 * change may carry the version before or after it.
 */
function allowedVersions(messageDate: string, initial: string, topics: Array<EventEnvelope<any>>): string[] {
  const at = Date.parse(messageDate);
  const before = topics.filter((t) => Date.parse(t.occurredAt) < at);
  const tied = topics.filter((t) => Date.parse(t.occurredAt) === at);
  return [before.length ? before[before.length - 1].payload.room.version : initial, ...tied.map((t) => t.payload.room.version)];
}

describe('rooms service outbox (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let capture: EventCapture;
  let relay: OutboxRelay;
  let ownerId: number;

  beforeAll(async () => {
    // A long poll interval: events must go out because the process that commits wakes the
    // relay at once, not because a poll came by.
    stack = await startStack({ OUTBOX_POLL_MS: '60000' });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    relay = stack.rooms.get(OutboxRelay);
    ownerId = (await rpc.createUser('Outbox Owner')).id;
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    relay?.start();
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    relay.start();
  });

  const outbox = () => sql<OutboxRow>(stack.databaseUrl, 'SELECT id, event_id, routing_key, envelope FROM outbox ORDER BY id');
  const appliedCount = async () => (await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM applied_commands'))[0].n as number;
  const createRoom = async (name: string) => (await rpc.send(CreateRoomV1, {
    actor: ACTOR, name, owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
  })).room;
  const setTopic = (roomId: number, topic: string) => rpc.send(SetTopicV1, { actor: ACTOR, room: { id: roomId }, topic, from: 'API' });
  const send = (roomId: number, message: string) => rpc.send(SendNotificationV1, {
    actor: ACTOR, room: { id: roomId }, from: 'API', message, messageFormat: 'text', notify: false, color: 'gray',
  });
  const topicEvents = (roomId: number) => capture.of(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === roomId);
  const notifications = (roomId: number) => capture.of(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === roomId);
  /** As if the relay had died: events stay in the outbox for the next one. */
  const crashAfterCommit = async () => {
    await relay.stop();
  };
  /** A relay again: it takes the lock at once and publishes what is left, in order. */
  const recover = async () => {
    jest.restoreAllMocks();
    relay.start();
  };

  it('writes a message with its event in one statement, at the event\'s position; one whose event is not written fails the commit', async () => {
    const room = await createRoom('One Statement');
    const db = stack.rooms.get(DataSource);
    const messages = stack.rooms.get(MessageRepository);
    // A message and the event that tells of it (published by the relay: other tests read such events' message ids).
    const staged = (): { message: StoredMessage; event: StagedEvent } => {
      const id = randomUUID();
      const event = stageEvent(RoomNotificationSentV2, { room: { id: room.id }, message: { id } } as never);
      const message = Object.assign(new MessageEntity(), {
        id, roomId: room.id, type: 'notification', fromLabel: 'API', userId: null, body: 'staged', messageFormat: 'text',
        color: 'gray', notify: false, mentionUserIds: [], createdAt: new Date(), event,
      }) as StoredMessage;
      return { message, event };
    };
    const { message: written, event: told } = staged();
    await db.transaction((m) => insertOutbox(m, [told], undefined, [(ev, param) => messages.withEvents([written], ev, param)]));
    const [row] = await sql(stack.databaseUrl, 'SELECT position::text AS position, body FROM messages WHERE id = $1', [written.id]);
    expect(row).toEqual({ position: told.position, body: 'staged' });

    // Its event staged but not written with it: the join would drop the message; the commit fails instead.
    const { event: other } = staged();
    const { message: orphan } = staged();
    await expect(db.transaction((m) => insertOutbox(m, [other], undefined, [(ev, param) => messages.withEvents([orphan], ev, param)])))
      .rejects.toThrow('1 staged rows, 0 written with their events');
    expect(await sql(stack.databaseUrl, 'SELECT id FROM messages WHERE id = $1', [orphan.id])).toEqual([]);
    expect(await sql(stack.databaseUrl, 'SELECT id FROM outbox WHERE event_id = $1', [other.envelope.id])).toEqual([]);
  });

  it('publishes the events of a command right after its commit and empties the outbox', async () => {
    const room = await createRoom('Drained');
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id, 3_000);
    await eventually(async () => expect(await outbox()).toEqual([]), 3_000);
  });

  it('writes the event in the same transaction as the change; the sweeper publishes what a crash left behind', async () => {
    const room = await createRoom('Held Back');
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
    await eventually(async () => expect(await outbox()).toEqual([]));

    await crashAfterCommit();
    const applied = await appliedCount();
    expect(await setTopic(room.id, 'queued')).toEqual({});
    // The change, its event and its command id are all committed: the topic is visible and the row waits.
    expect((await sql(stack.databaseUrl, 'SELECT topic FROM rooms WHERE id = $1', [room.id]))[0].topic).toBe('queued');
    expect(await appliedCount()).toBe(applied + 1);
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      routing_key: RoomTopicChangedV2.routingKey,
      envelope: { type: 'room.topic-changed', version: 2, payload: { topic: 'queued', room: { id: room.id } } },
    });
    expect(rows[0].envelope.id).toBe(rows[0].event_id);
    await sleep(300);
    expect(topicEvents(room.id)).toEqual([]);

    await recover();
    const event = await capture.waitFor(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id);
    expect(event).toEqual({ ...rows[0].envelope, sequence: 2 });
    await eventually(async () => expect(await outbox()).toEqual([]));
    expect(topicEvents(room.id)).toHaveLength(1);
  });

  it('writes nothing, neither events nor command ids, for a refused command', async () => {
    await createRoom('Taken Name');
    await crashAfterCommit();
    await sql(stack.databaseUrl, 'DELETE FROM outbox');
    const applied = await appliedCount();
    const err = await rpc.refused(CreateRoomV1, {
      actor: ACTOR, name: 'TAKEN NAME', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    });
    expect(err.code).toBe('conflict');
    expect(await rpc.refused(CreateUserV1, { email: 'outboxowner@example.com', name: 'Again' })).toMatchObject({ code: 'conflict' });
    expect(await rpc.refused(SendNotificationV1, {
      actor: ACTOR, room: { name: 'No Such Room' }, from: 'x', message: 'x', messageFormat: 'text', notify: false, color: 'gray',
    })).toMatchObject({ code: 'not_found' });
    expect(await outbox()).toEqual([]);
    expect(await appliedCount()).toBe(applied);
  });

  it('publishes a backlog larger than one sweep batch in commit order', async () => {
    const room = await createRoom('Backlog');
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
    await crashAfterCommit();
    const count = 230;
    for (let i = 0; i < count; i++) await setTopic(room.id, `t${i}`);
    expect(await outbox()).toHaveLength(count);
    expect(topicEvents(room.id)).toEqual([]);
    await recover();
    await eventually(() => expect(topicEvents(room.id)).toHaveLength(count), 20_000);
    expect(topicEvents(room.id).map((e) => e.payload.topic)).toEqual(Array.from({ length: count }, (_, i) => `t${i}`));
    await eventually(async () => expect(await outbox()).toEqual([]));
  });

  it('publishes concurrent changes of one room once each, topic changes in commit order, each message with the room version of its time', async () => {
    const room = await createRoom('Busy Room');
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
    const n = 40;
    const replies = await Promise.all(Array.from({ length: n }, (_, i) => (i % 2 ? setTopic(room.id, `c${i}`) : send(room.id, `m${i}`))));
    await eventually(() => expect(topicEvents(room.id).length + notifications(room.id).length).toBe(n), 20_000);

    // Topic changes take the room FOR UPDATE one after the other: they arrive in commit
    // order (their occurredAt follows it), versions never repeat, and the last one is the
    // room's state.
    const topics = topicEvents(room.id);
    expect([...topics].sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt))).toEqual(topics);
    expect(topics).toHaveLength(n / 2);
    expect(new Set(topics.map((e) => e.payload.topic)).size).toBe(n / 2);
    expect(new Set(topics.map((e) => e.payload.room.version)).size).toBe(n / 2);
    const [state] = await sql(stack.databaseUrl, 'SELECT topic, version FROM rooms WHERE id = $1', [room.id]);
    expect(topics[topics.length - 1].payload).toMatchObject({ topic: state.topic, room: { version: state.version } });

    const messageIds = replies.filter((r): r is { messageId: string; date: string } => 'messageId' in r).map((r) => r.messageId);
    const notified = notifications(room.id);
    expect(notified.map((e) => e.payload.message.id).sort()).toEqual([...messageIds].sort());
    expect(await sql(stack.databaseUrl, 'SELECT id FROM messages WHERE room_id = $1', [room.id])).toHaveLength(n / 2);
    for (const e of notified) {
      expect(allowedVersions(e.payload.message.date, room.version, topics)).toContain(e.payload.room.version);
    }
    await eventually(async () => expect(await outbox()).toEqual([]));
  });

  it('never gives a notification a stale room version: messages sent after a topic change carry its version', async () => {
    const room = await createRoom('No Stale Versions');
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
    const before = Array.from({ length: 100 }, (_, i) => send(room.id, `before ${i}`));
    await sleep(5);
    const topic = setTopic(room.id, 'switched');
    const alsoBefore = Array.from({ length: 50 }, (_, i) => send(room.id, `racing ${i}`));
    await topic;
    const changed = await capture.waitFor(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id);
    const newVersion = changed.payload.room.version;
    expect(newVersion).not.toBe(room.version);
    const after = await Promise.all(Array.from({ length: 50 }, (_, i) => send(room.id, `after ${i}`)));
    const earlier = await Promise.all([...before, ...alsoBefore]);

    await eventually(() => expect(notifications(room.id)).toHaveLength(200), 20_000);
    const byId = new Map(notifications(room.id).map((e) => [e.payload.message.id, e]));
    for (const e of byId.values()) {
      expect([room.version, newVersion]).toContain(e.payload.room.version);
      expect(allowedVersions(e.payload.message.date, room.version, [changed])).toContain(e.payload.room.version);
    }
    for (const r of after) expect(byId.get(r.messageId)?.payload.room.version).toBe(newVersion);
    expect(earlier.every((r) => byId.has(r.messageId))).toBe(true);
    expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.version).toBe(newVersion);
  });

  // sendNotification reads the room under a share lock, so a notification committed after a
  // topic change carries the version that change set. Deterministic: the topic change and
  // the notification queue on a lock held here; the topic change goes first.
  it('a notification committed after a topic change carries the room version the topic change set', async () => {
    const room = await createRoom('Versioned');
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
    const dbName = new URL(stack.databaseUrl).pathname.slice(1);
    const waiting = async () => Number((await sql(stack.databaseUrl,
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [dbName]))[0].n);
    const holder = new Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    let topic: Promise<unknown>;
    let note: Promise<{ messageId: string }>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM rooms WHERE id = $1 FOR UPDATE', [room.id]);
      topic = setTopic(room.id, 'first');
      await eventually(async () => expect(await waiting()).toBe(1));
      note = send(room.id, 'second');
      await eventually(async () => expect(await waiting()).toBe(2));
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    await topic;
    const { messageId } = await note;
    const changed = await capture.waitFor(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id);
    const notified = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === messageId);
    const [state] = await sql(stack.databaseUrl, 'SELECT version FROM rooms WHERE id = $1', [room.id]);
    expect(changed.payload.room.version).toBe(state.version);
    expect(notified.payload.room.version).toBe(state.version);
    expect(state.version).not.toBe(room.version);
  });
});

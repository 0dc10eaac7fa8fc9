import { RoomCreatedV1, RoomNotificationSentV1, RoomsCommandV1, RoomTopicChangedV1, UsersCommandV1 } from '@app/contracts';
import { EventCapture, Stack, startStack } from '../../../test/support/harness';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { Client } from 'pg';
import { ACTOR, eventually, RoomsRpc, sql } from './support';

interface OutboxRow { id: string; event_id: string; routing_key: string; envelope: any }


describe('rooms service outbox (real Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let rpc: RoomsRpc;
  let capture: EventCapture;
  let relay: OutboxRelay;
  let ownerId: number;

  beforeAll(async () => {
    // A long poll interval: events must go out because the relay is kicked after commit.
    stack = await startStack({ rooms: { OUTBOX_POLL_MS: '60000' } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    relay = stack.rooms!.get(OutboxRelay);
    ownerId = (await rpc.createUser('Outbox Owner')).user_id;
  });
  afterAll(async () => {
    relay?.start();
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });
  afterEach(() => relay.start());

  const outbox = () => sql<OutboxRow>(stack.databaseUrl, 'SELECT id, event_id, routing_key, envelope FROM outbox ORDER BY id');
  const createRoom = async (name: string) => (await rpc.send(RoomsCommandV1.create, {
    actor: ACTOR, name, ownerUserId: ownerId, privacy: 'public', topic: '', guestAccess: false,
  })).room as { room_id: number };
  const topicEvents = (roomId: number) => capture.events
    .filter((e) => e.routingKey === RoomTopicChangedV1.routingKey && (e.envelope.payload as any).room.id === roomId)
    .map((e) => e.envelope);

  it('empties the outbox once the events of a command are published', async () => {
    const room = await createRoom('Drained');
    await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    await eventually(async () => expect(await outbox()).toEqual([]));
  });

  it('writes the event in the same transaction as the change, and publishes it once the relay runs again', async () => {
    const room = await createRoom('Held Back');
    await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    await eventually(async () => expect(await outbox()).toEqual([]));

    await relay.stop();
    expect(await rpc.send(RoomsCommandV1.setTopic, { actor: ACTOR, roomIdOrName: 'Held Back', topic: 'queued', from: 'API' }))
      .toEqual({ status: 'ok' });
    // The change and its event are both committed: the topic is visible and the row waits.
    expect((await sql(stack.databaseUrl, 'SELECT topic, version FROM rooms WHERE id = $1', [room.room_id]))[0].topic).toBe('queued');
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      routing_key: RoomTopicChangedV1.routingKey,
      envelope: { type: 'room.topic-changed', version: 1, payload: { topic: 'queued', room: { id: room.room_id } } },
    });
    expect(rows[0].envelope.id).toBe(rows[0].event_id);
    await new Promise((r) => setTimeout(r, 300));
    expect(topicEvents(room.room_id)).toEqual([]);

    relay.start();
    const event = await capture.waitFor(RoomTopicChangedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    expect(event).toEqual(rows[0].envelope);
    await eventually(async () => expect(await outbox()).toEqual([]));
  });

  it('writes nothing to the outbox for a refused command', async () => {
    await relay.stop();
    await createRoom('Taken Name');
    await sql(stack.databaseUrl, 'DELETE FROM outbox');
    const err = await rpc.refused(RoomsCommandV1.create, {
      actor: ACTOR, name: 'TAKEN NAME', ownerUserId: ownerId, privacy: 'public', topic: '', guestAccess: false,
    });
    expect(err.code).toBe('conflict');
    expect(await rpc.refused(UsersCommandV1.create, { email: 'outboxowner@example.com', name: 'Again' }))
      .toMatchObject({ code: 'conflict' });
    expect(await outbox()).toEqual([]);
  });

  it('publishes a backlog larger than one relay batch in commit order', async () => {
    const room = await createRoom('Backlog');
    await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    await relay.stop();
    const count = 230;
    for (let i = 0; i < count; i++) {
      await rpc.send(RoomsCommandV1.setTopic, { actor: ACTOR, roomIdOrName: String(room.room_id), topic: `t${i}`, from: 'API' });
    }
    expect(await outbox()).toHaveLength(count);
    relay.start();
    await eventually(() => expect(topicEvents(room.room_id)).toHaveLength(count), 20_000);
    expect(topicEvents(room.room_id).map((e) => (e.payload as any).topic)).toEqual(Array.from({ length: count }, (_, i) => `t${i}`));
    await eventually(async () => expect(await outbox()).toEqual([]));
  });

  it('publishes concurrent changes of one room in the order they were committed', async () => {
    const room = await createRoom('Busy Room');
    await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    const n = 40;
    await Promise.all(Array.from({ length: n }, (_, i) => i % 2
      ? rpc.send(RoomsCommandV1.setTopic, { actor: ACTOR, roomIdOrName: String(room.room_id), topic: `c${i}`, from: 'API' })
      : rpc.send(RoomsCommandV1.sendNotification, {
        actor: ACTOR, roomIdOrName: String(room.room_id), from: 'API', message: `m${i}`, messageFormat: 'text', notify: false, color: 'gray',
      })));
    const ofRoom = () => capture.events.filter((e) => (e.envelope.payload as any).room?.id === room.room_id && e.routingKey !== RoomCreatedV1.routingKey);
    await eventually(() => expect(ofRoom()).toHaveLength(n), 20_000);

    // Commit order as PostgreSQL saw it: each message row and each topic change is stamped
    // in the transaction; the room's final topic and version come from the last topic commit.
    const [state] = await sql(stack.databaseUrl, 'SELECT topic, version FROM rooms WHERE id = $1', [room.room_id]);
    const topics = ofRoom().filter((e) => e.routingKey === RoomTopicChangedV1.routingKey).map((e) => e.envelope.payload as any);
    expect(topics[topics.length - 1]).toMatchObject({ topic: state.topic, room: { version: state.version } });
    // Every topic change is published after the one it replaced: room versions never repeat
    // and notifications in between carry the version current when they were committed.
    const messages = await sql(stack.databaseUrl, 'SELECT id FROM messages WHERE room_id = $1 ORDER BY created_at, id', [room.room_id]);
    expect(messages).toHaveLength(n / 2);
    const notified = ofRoom().filter((e) => e.routingKey === RoomNotificationSentV1.routingKey);
    expect(notified).toHaveLength(n / 2);
    // Outbox ids are taken under the room's row lock, so the event order is the commit order;
    // the relay must never deliver a later row before an earlier one.
    const occurred = ofRoom().map((e) => Date.parse(e.envelope.occurredAt));
    expect(occurred).toEqual([...occurred].sort((a, b) => a - b));
    await eventually(async () => expect(await outbox()).toEqual([]));
  });

  // sendNotification reads the room under a row lock, so a notification committed after a
  // topic change carries the version that change set. Deterministic: the topic change and
  // the notification queue on a lock held here; the topic change goes first.
  it('a notification committed after a topic change carries the room version the topic change set', async () => {
    const room = await createRoom('Versioned');
    await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    const dbName = new URL(stack.databaseUrl).pathname.slice(1);
    const waiting = async () => Number((await sql(stack.databaseUrl,
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [dbName]))[0].n);
    const holder = new Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    let topic: Promise<unknown>;
    let note: Promise<{ messageId: string }>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM rooms WHERE id = $1 FOR UPDATE', [room.room_id]);
      topic = rpc.send(RoomsCommandV1.setTopic, { actor: ACTOR, roomIdOrName: String(room.room_id), topic: 'first', from: 'API' });
      await eventually(async () => expect(await waiting()).toBe(1));
      note = rpc.send(RoomsCommandV1.sendNotification, {
        actor: ACTOR, roomIdOrName: String(room.room_id), from: 'API', message: 'second', messageFormat: 'text', notify: false, color: 'gray',
      });
      await eventually(async () => expect(await waiting()).toBe(2));
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    await topic;
    const { messageId } = await note;
    const changed = await capture.waitFor(RoomTopicChangedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
    const notified = await capture.waitFor(RoomNotificationSentV1.routingKey, (e: any) => e.payload.message.id === messageId);
    const [state] = await sql(stack.databaseUrl, 'SELECT version FROM rooms WHERE id = $1', [room.room_id]);
    expect((changed.payload as any).room.version).toBe(state.version);
    expect((notified.payload as any).room.version).toBe(state.version);
  });
});

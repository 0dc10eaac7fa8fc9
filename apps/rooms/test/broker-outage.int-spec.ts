import { connect as amqpConnect } from 'amqplib';
import { Client } from 'pg';
import {
  brokerNames, CreateRoomV1, GetRoomV1, RoomCreatedV2, RoomNotificationSentV2, RoomTopicChangedV2, SendNotificationV1, SetTopicV1,
} from '@app/contracts';
import { EventPublisher } from '@app/common';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { CreateRoom } from '../src/rooms/create-room/create-room.usecase';
import { SetTopic } from '../src/rooms/set-topic/set-topic.usecase';
import {
  ACTOR, BrokerLink, eventually, EventCapture, inProcess, RoomsRpc, RoomsStack, sleep, sql, startStack, testInfra,
} from './support';

/**
 * The rooms service reaches RabbitMQ through a link this test can cut, so that it loses
 * the broker for real while the test (its client and its event capture) keeps its own
 * connection. Changes are made in-process during the outage, since commands cannot
 * arrive then.
 */
describe('rooms service during a RabbitMQ outage (real Postgres, RabbitMQ)', () => {
  let link: BrokerLink;
  let stack: RoomsStack;
  let capture: EventCapture;
  let rpc: RoomsRpc;
  let ownerId: number;

  const outboxCount = async () => (await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM outbox'))[0].n as number;
  const createInProcess = (name: string, privacy: 'public' | 'private' = 'public') =>
    stack.rooms.get(CreateRoom).execute({
      actor: ACTOR, name, owner: { id: ownerId }, privacy, topic: '', guestAccess: false,
    }, inProcess(CreateRoomV1.pattern)).then((r) => r.room);

  beforeAll(async () => {
    link = await BrokerLink.open(testInfra().amqpUrl);
    // The sweeper looks every 200 ms for rows older than 500 ms.
    stack = await startStack({ AMQP_URL: link.url(testInfra().amqpUrl), OUTBOX_POLL_MS: '200' });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    ownerId = (await rpc.createUser('Owner')).id;
  });
  afterEach(async () => {
    await link.restore().catch(() => undefined);
  });
  afterAll(async () => {
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
    await link?.cut();
  });

  it('keeps events written during the outage in the outbox and publishes them once the broker is back', async () => {
    // What came before (the owner's user_created) is published: the outbox holds only the outage's events.
    await eventually(async () => expect(await outboxCount()).toBe(0));
    await link.cut();
    await sleep(300);
    const room = await createInProcess('Offline Room');
    await stack.rooms.get(SetTopic).execute({ actor: ACTOR, room: { id: room.id }, topic: 'offline topic', from: 'API' }, inProcess(SetTopicV1.pattern));
    await sleep(1000);
    // room_created, the owner's room.member-added notice, room_topic_change.
    expect(await outboxCount()).toBe(3);
    expect(capture.of(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id)).toEqual([]);

    // A command sent meanwhile waits in the durable command queue and is answered later.
    const answered = rpc.send(SetTopicV1, { actor: ACTOR, room: { name: 'Offline Room' }, topic: 'back', from: 'API' }, 30_000);
    await sleep(300);
    await link.restore();
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id, 20_000);
    expect(await answered).toEqual({});
    await eventually(() => expect(capture.of(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id)
      .map((e) => e.payload.topic).sort()).toEqual(['back', 'offline topic']), 20_000);
    // The backlog goes out before the room's newer event, in commit order, numbered 1, 2, 3.
    const ofRoom = capture.events.filter((e) => (e.envelope.payload as any).room?.id === room.id);
    expect(ofRoom.map((e) => [e.routingKey, (e.envelope.payload as any).topic, e.envelope.sequence])).toEqual([
      [RoomCreatedV2.routingKey, undefined, 1], [RoomTopicChangedV2.routingKey, 'offline topic', 2], [RoomTopicChangedV2.routingKey, 'back', 3],
    ]);
    await eventually(async () => expect(await outboxCount()).toBe(0));

    // The service survived the outage: the same instance serves commands again.
    expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.topic).toBe('back');
  });

  it('keeps events whose publication the outage interrupted, and publishes them after it', async () => {
    // No pause after the cut: the relay still believes it is connected and publishes into
    // the void; the publish is not confirmed, so the rows stay for the sweeper.
    await eventually(async () => expect(await outboxCount()).toBe(0));
    await link.cut();
    const room = await createInProcess('Interrupted Room');
    await sleep(6_000);
    // room_created and the owner's room.member-added notice.
    expect(await outboxCount()).toBe(2);
    await link.restore();
    await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id, 20_000);
    await eventually(async () => expect(await outboxCount()).toBe(0));
    expect((await rpc.send(GetRoomV1, { room: { id: room.id } }, 20_000)).room.name).toBe('Interrupted Room');
  });

  it('a command in flight when the service loses the broker is delivered again, applied once and answered', async () => {
    const room = (await rpc.send(CreateRoomV1, {
      actor: ACTOR, name: 'In Flight', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    })).room;
    const dbName = new URL(stack.databaseUrl).pathname.slice(1);
    const waiting = async () => Number((await sql(stack.databaseUrl,
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [dbName]))[0].n);
    // Hold the room so that the command blocks in its transaction, unacknowledged.
    const holder = new Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    let reply: Promise<{ messageId: string; date: string }>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM rooms WHERE id = $1 FOR UPDATE', [room.id]);
      reply = rpc.send(SendNotificationV1, {
        actor: ACTOR, room: { id: room.id }, from: 'API', message: 'in flight', messageFormat: 'text', notify: false, color: 'gray',
      }, 30_000);
      await eventually(async () => expect(await waiting()).toBe(1));
      // The service loses the broker mid-command: the broker takes the command back and,
      // once the service has reconnected, delivers it again (flagged redelivered).
      await link.cut();
      await sleep(300);
      await link.restore();
      await eventually(async () => expect(await waiting()).toBe(2), 20_000);
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    const { messageId } = await reply;
    expect(await sql(stack.databaseUrl, 'SELECT id FROM messages WHERE room_id = $1', [room.id])).toEqual([{ id: messageId }]);
    await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === messageId, 20_000);
    await sleep(500);
    // One event (consumers de-duplicate a republished one on its id).
    expect(new Set(capture.of(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === room.id).map((e) => e.id)).size).toBe(1);
  });

  it('leaves the events of a change that waited long for a lock to the process that committed it (published once)', async () => {
    const room = (await rpc.send(CreateRoomV1, {
      actor: ACTOR, name: 'Slow Commit', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    })).room;
    const holder = new Client({ connectionString: stack.databaseUrl });
    await holder.connect();
    // A broker slow to confirm (300 ms, longer than a sweep interval): a sweep comes by
    // while the committing process is still publishing.
    const publisher = (stack.rooms.get(OutboxRelay) as unknown as { publisher: EventPublisher }).publisher;
    const publish = publisher.publish.bind(publisher);
    jest.spyOn(publisher, 'publish').mockImplementation(async (routingKey, envelope) => {
      await sleep(300);
      return publish(routingKey, envelope);
    });
    let reply: Promise<unknown>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM rooms WHERE id = $1 FOR UPDATE', [room.id]);
      reply = rpc.send(SetTopicV1, { actor: ACTOR, room: { id: room.id }, topic: 'after a wait', from: 'API' });
      // Far longer than the sweep age: the row must still count as young when it is committed.
      await sleep(1_500);
      await holder.query('COMMIT');
      await holder.end();
      expect(await reply).toEqual({});
      await capture.waitFor(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id);
      await eventually(async () => expect(await outboxCount()).toBe(0));
      await sleep(700);
    } finally {
      jest.restoreAllMocks();
      await holder.end().catch(() => undefined);
    }
    expect(capture.of(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id)).toHaveLength(1);
  });

  it('serves its command queue again after an operator deletes it (the broker cancels the consumer; the connection stays up)', async () => {
    // amqp-connection-manager sets a channel up again only with a new connection: without the
    // healer (openChannel), the cancelled consumer was never replaced and every command timed out.
    const made = await createInProcess('Queue Deleted');
    const operator = await amqpConnect(stack.amqpUrl);
    try {
      const ch = await operator.createChannel();
      await ch.deleteQueue(brokerNames(stack.namespace).roomsCommandQueue);
      await ch.close();
    } finally {
      await operator.close();
    }
    // Commands sent before the queue is back are dropped by the broker (no queue): each try is its own.
    const room = await eventually(() => rpc.send(GetRoomV1, { room: { id: made.id } }, 1_500), 30_000);
    expect(room.room.name).toBe('Queue Deleted');
  });

  it('shuts down promptly during an outage, and a restarted service publishes what was left', async () => {
    await link.cut();
    await sleep(300);
    const room = await createInProcess('Left Behind', 'private');
    await sleep(500);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      stack.rooms.close().then(() => 'closed'),
      new Promise((r) => { timer = setTimeout(() => r('still closing after 15 s'), 15_000); }),
    ]).finally(() => clearTimeout(timer));
    expect(closed).toBe('closed');
    // room_created and the owner's room.member-added notice.
    expect(await outboxCount()).toBe(2);

    await link.restore();
    await stack.startReplica({ AMQP_URL: stack.amqpUrl });
    const event = await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id, 20_000);
    expect(event.payload.room).toMatchObject({ name: 'Left Behind', privacy: 'private' });
    await eventually(async () => expect(await outboxCount()).toBe(0));
  });
});

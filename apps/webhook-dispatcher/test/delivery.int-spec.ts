import { randomUUID } from 'node:crypto';
import { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { ConfirmChannel, connect } from 'amqplib';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { AmqpBroker, createLogger, parseConfig, RpcClient } from '@app/common';
import {
  brokerNames, CreateRoomV1, CreateUserV1, CreateWebhookV1, DeleteWebhookV1, GetHistoryV2, RequestOf, RoomNotificationSentV2,
  RoomTopicChangedV2, SendMessageV1, SendNotificationV1,
} from '@app/contracts';
import {
  databaseUrl, deleteBrokerNamespace, EventCapture, eventually, removeTestState, retryScheduleOf, Stack, startStack, testInfra, trackTestState, uniqueName,
  TEST_SECRETS_KEYS,
} from '../../../test/support/harness';
import { startRoomsService } from '../../rooms/src/bootstrap';
import { roomsConfigShape } from '../../rooms/src/config';
import { startDispatcher } from '../src/bootstrap';
import { dispatcherConfigShape } from '../src/config';
import { deliveryIdOf } from '../src/delivery/delivery-job';
import { Registrations } from '../src/registrations/registrations';
import { standardWebhookKey } from '../src/signing/standard-webhooks';
import { Receiver } from './receiver';

const SCHEDULE = { WEBHOOK_RETRY_SCHEDULE: '200ms,400ms' };
/** The slow-receiver test's: a second to see busy attempts recorded before their retry. */
const LIMIT_SCHEDULE = { WEBHOOK_RETRY_SCHEDULE: '1s,1s' };
// Four jobs in hand at a time: a receiver that hangs would soon hold them all, were attempts never to give their slot back.
const DISPATCHER_ENV = { ...SCHEDULE, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_CONCURRENCY: '4' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook deliveries (real RabbitMQ, PostgreSQL and HTTP receiver)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let db: Client;
  let capture: EventCapture;
  let ownerId: number;
  const extra: INestApplicationContext[] = [];

  const registrations = () => stack.dispatcher!.get(Registrations);

  const newRoom = async () => {
    const { room } = await rpc.request(CreateRoomV1, {
      actor: { label: 't' }, name: `Hooks ${randomUUID().slice(0, 8)}`, owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    });
    return room;
  };

  /** Registers a webhook through the rooms service, and waits for the dispatcher's index to have it. */
  const register = async (roomId: number, spec: Omit<RequestOf<typeof CreateWebhookV1>, 'actor' | 'room'>, index = registrations) => {
    const created = await rpc.request(CreateWebhookV1, { actor: { label: 'admin', userId: ownerId }, room: { id: roomId }, ...spec });
    await eventually(() => expect(index().get(created.webhook.id)).toBeDefined(), 2_000);
    // A user's registration: its own secret, always answered (only an add-on's has none).
    return { ...created, secret: created.secret! };
  };

  const notify = (roomId: number, message: string) => rpc.request(SendNotificationV1, {
    actor: { label: 'ci', userId: ownerId }, room: { id: roomId }, message, messageFormat: 'text', notify: false, color: 'yellow',
  });

  const notificationEvent = (messageId: string) =>
    capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === messageId);

  /** A channel of a connection of the test's own, closed after `use`. */
  const withChannel = async <T>(use: (ch: ConfirmChannel) => Promise<T>): Promise<T> => {
    const conn = await connect(stack.amqpUrl);
    try {
      return await use(await conn.createConfirmChannel());
    } finally {
      await conn.close().catch(() => undefined);
    }
  };

  /** Puts a job in the deliveries queue, as the event consumer, a delay queue or the in-flight queue does. */
  const publishJob = (job: Record<string, unknown>) => withChannel(async (ch) => {
    const names = brokerNames(stack.namespace);
    ch.publish(names.deliveriesExchange, names.deliveriesQueue, Buffer.from(JSON.stringify(job)), { persistent: true });
    await ch.waitForConfirms();
  });

  const deliveryRow = async (id: string) => (await db.query('SELECT * FROM webhook_deliveries WHERE id = $1', [id])).rows[0];
  const attemptRows = async (id: string) =>
    (await db.query('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [id])).rows;

  beforeAll(async () => {
    receiver = await Receiver.start();
    // The rooms service refuses registrations at loopback addresses unless they are opened too.
    stack = await startStack({ rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    ownerId = (await rpc.request(CreateUserV1, { email: 'owner@example.com', name: 'Owner' })).user.id;
  });

  afterEach(() => receiver.release());

  afterAll(async () => {
    while (extra.length) await extra.pop()!.close().catch(() => undefined);
    await receiver?.stop();
    await capture?.stop();
    await broker?.close();
    await db?.end().catch(() => undefined);
    await stack?.stop();
    // The delay queues of the dispatchers some tests start with LIMIT_SCHEDULE (the stack removes SCHEDULE's).
    if (stack) await deleteBrokerNamespace(stack.amqpUrl, stack.namespace, retryScheduleOf(LIMIT_SCHEDULE));
  });

  it('keeps its records in tables of its own, migrated in dispatcher_migrations', async () => {
    const { rows } = await db.query('SELECT name FROM dispatcher_migrations');
    expect(rows.map((r) => r.name)).toEqual(['Deliveries1764200000000', 'DeliveryRetention1764300000000', 'DeliveryLog1764500000000', 'OrderedDeliveries1764650000000', 'UnfinishedDeliveries1765000000000',
      'DeliveryTrace1765100000000', 'AttemptRepeats1765200000000', 'ParkedUntil1765300000000', 'ScheduleOffset1765400000000',
      'RegistrationsVersion1765500000000', 'PartsDone1766600000000']);
    const tables = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'webhook\\_%' ORDER BY 1`);
    expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['webhook_attempts', 'webhook_deliveries']));
  });

  it('delivers a notification sent through the rooms service: the exact envelope, a verifiable JWT and Standard Webhooks signature', async () => {
    const room = await newRoom();
    const url = `${receiver.route('/exact', { status: 204 })}?token=framework-token-1`;
    const { webhook, secret } = await register(room.id, { url, event: 'room_notification', name: 'Exact', authentication: 'jwt' });
    const sent = await notify(room.id, 'hello receivers');
    const event = await notificationEvent(sent.messageId);
    const [got] = await eventually(() => {
      expect(receiver.to('/exact')).toHaveLength(1);
      return receiver.to('/exact');
    });

    const token = String(got.headers.authorization).replace(/^JWT /, '');
    // The registered query string kept; the JWT also where add-on frameworks read it.
    expect(got.url).toBe(`/exact?token=framework-token-1&signed_request=${token}`);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toEqual(expect.any(String));
    const body = JSON.parse(got.body);
    // Domain-only fields are not part of the item: notify, and the acting user (the JWT's subject).
    const { notify: _notify, actorUserId, ...item } = event.payload;
    expect(actorUserId).toBe(ownerId);
    expect(body).toEqual({ event: 'room_notification', item, webhook_id: webhook.id });
    expect(item.message).toMatchObject({ id: sent.messageId, message: 'hello receivers', type: 'notification' });
    expect(item.room).toMatchObject({ id: room.id, name: room.name });

    const claims = jwt.verify(token, secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    expect(claims).toMatchObject({
      iss: String(webhook.id), sub: String(ownerId), prn: String(ownerId), context: { room_id: room.id, user_tz: 'UTC' },
      jti: expect.any(String),
    });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300);

    const deliveryId = deliveryIdOf(event.id, webhook.id);
    expect(got.headers['webhook-id']).toBe(deliveryId);
    const signed = new Webhook(standardWebhookKey(secret)).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    });
    expect(signed).toEqual(body);

    await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({
      webhook_id: webhook.id, event: 'room_notification', event_id: event.id, room_id: room.id,
      status: 'delivered', attempts: 1, last_status: 204, last_error: null, next_attempt_at: null, envelope: got.body,
    }));
    const [attempt, ...more] = await attemptRows(deliveryId);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ attempt: 1, status: 204, error: null, response_excerpt: null, started_at: expect.any(Date) });
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('names the author of a message as the JWT\'s subject, and applies the pattern', async () => {
    const room = await newRoom();
    const { webhook, secret } = await register(room.id, {
      url: receiver.route('/messages', { status: 204 }), event: 'room_message', pattern: '^deploy\\b', authentication: 'jwt',
    });
    const author = (await rpc.request(CreateUserV1, { email: `author-${randomUUID().slice(0, 8)}@example.com`, name: 'Author' })).user;
    await rpc.request(SendMessageV1, { actor: { label: 'author', userId: author.id }, room: { id: room.id }, message: 'hello' });
    const sent = await rpc.request(SendMessageV1, { actor: { label: 'author', userId: author.id }, room: { id: room.id }, message: 'deploy now' });
    const [got, ...more] = await eventually(() => {
      expect(receiver.to('/messages')).toHaveLength(1);
      return receiver.to('/messages');
    });
    await sleep(200);
    expect(more).toEqual([]);
    expect(receiver.to('/messages')).toHaveLength(1);
    expect(JSON.parse(got.body)).toMatchObject({ event: 'room_message', webhook_id: webhook.id, item: { message: { id: sent.id, message: 'deploy now' } } });
    const claims = jwt.verify(String(got.headers.authorization).replace(/^JWT /, ''), secret) as jwt.JwtPayload;
    expect(claims).toMatchObject({ iss: String(webhook.id), sub: String(author.id), prn: String(author.id) });
  });

  it('retries a 500 after the scheduled wait with the same webhook-id, recording both attempts', async () => {
    const room = await newRoom();
    const url = receiver.route('/flaky', (_req, n) => (n === 1 ? { status: 500, body: 'try later', headers: { 'content-type': 'text/plain' } } : { status: 200 }));
    const { webhook } = await register(room.id, { url, event: 'room_notification' });
    const event = await notificationEvent((await notify(room.id, 'flaky')).messageId);
    const [first, second] = await eventually(() => {
      expect(receiver.to('/flaky')).toHaveLength(2);
      return receiver.to('/flaky');
    }, 5_000);
    const deliveryId = deliveryIdOf(event.id, webhook.id);
    expect(first.headers['webhook-id']).toBe(deliveryId);
    expect(second.headers['webhook-id']).toBe(deliveryId);
    expect(second.body).toBe(first.body);
    // 200 ms ± 10 %, waited in a delay queue of the broker.
    expect(second.at - first.at).toBeGreaterThanOrEqual(170);

    await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200 }));
    expect(await attemptRows(deliveryId)).toEqual([
      expect.objectContaining({ attempt: 1, status: 500, error: null, response_excerpt: 'try later' }),
      expect.objectContaining({ attempt: 2, status: 200, error: null }),
    ]);
  });

  it('gives up after the schedule is spent (every attempt recorded), and at once on a 404', async () => {
    const room = await newRoom();
    const down = await register(room.id, { url: receiver.route('/down', { status: 503 }), event: 'room_notification' });
    const gone = await register(room.id, { url: receiver.route('/gone', { status: 404, body: 'no such hook', headers: { 'content-type': 'text/plain' } }), event: 'room_notification' });
    const event = await notificationEvent((await notify(room.id, 'anyone there?')).messageId);

    const downId = deliveryIdOf(event.id, down.webhook.id);
    await eventually(async () => expect(await deliveryRow(downId)).toMatchObject({ status: 'failed', attempts: 3, last_status: 503, next_attempt_at: null }), 5_000);
    expect((await attemptRows(downId)).map((a) => [a.attempt, a.status])).toEqual([[1, 503], [2, 503], [3, 503]]);
    const [a, b, c] = receiver.to('/down');
    expect(b.at - a.at).toBeGreaterThanOrEqual(170);
    expect(c.at - b.at).toBeGreaterThanOrEqual(350);

    const goneId = deliveryIdOf(event.id, gone.webhook.id);
    expect(await deliveryRow(goneId)).toMatchObject({ status: 'failed', attempts: 1, last_status: 404, next_attempt_at: null });
    expect(await attemptRows(goneId)).toEqual([expect.objectContaining({ attempt: 1, status: 404, response_excerpt: 'no such hook' })]);
    expect(receiver.to('/gone')).toHaveLength(1);
    expect(receiver.to('/down')).toHaveLength(3);
  });

  it('posts a reply as a room notification with causedBy, not delivered back to the webhook that replied', async () => {
    const room = await newRoom();
    const replier = await register(room.id, {
      url: receiver.route('/replier', { status: 200, body: JSON.stringify({ message: 'pong', message_format: 'text', color: 'green' }) }),
      event: 'room_notification', name: 'Replier',
    });
    const listener = await register(room.id, { url: receiver.route('/listener', { status: 204 }), event: 'room_notification' });
    const ping = await notificationEvent((await notify(room.id, 'ping')).messageId);

    const pong = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === room.id && e.payload.message.message === 'pong');
    const deliveryId = deliveryIdOf(ping.id, replier.webhook.id);
    expect(pong.payload.causedBy).toEqual({ webhookId: replier.webhook.id, deliveryId, depth: 1 });
    expect(pong.payload.message).toMatchObject({ from: 'Replier', color: 'green', message_format: 'text' });
    await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'delivered', reply_message_id: pong.payload.message.id, reply_error: null,
    }));
    const { messages } = await rpc.request(GetHistoryV2, { room: { id: room.id }, recentOnly: true, offset: 0, details: false });
    expect(messages.map((m) => m.message)).toEqual(expect.arrayContaining(['ping', 'pong']));

    // The listener gets both; the replier only the ping (its own reply is not sent back to it).
    await eventually(() => expect(receiver.to('/listener').map((r) => JSON.parse(r.body).item.message.message).sort()).toEqual(['ping', 'pong']));
    await sleep(300);
    expect(receiver.to('/replier').map((r) => JSON.parse(r.body).item.message.message)).toEqual(['ping']);
    expect(deliveryIdOf(pong.id, listener.webhook.id)).toBe(receiver.to('/listener')[1].headers['webhook-id']);
  });

  it('records an invalid reply against the delivery and posts nothing', async () => {
    const room = await newRoom();
    const { webhook } = await register(room.id, {
      url: receiver.route('/bad-reply', { status: 200, body: JSON.stringify({ colour: 'green' }) }), event: 'room_notification',
    });
    const event = await notificationEvent((await notify(room.id, 'say something')).messageId);
    const deliveryId = deliveryIdOf(event.id, webhook.id);
    await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'delivered', reply_message_id: null, reply_error: expect.stringContaining('message'),
    }));
    await sleep(200);
    expect(capture.of(RoomNotificationSentV2.routingKey, (e) => e.payload.room.id === room.id)).toHaveLength(1);
  });

  it('a receiver that hangs does not hold up deliveries to the others', async () => {
    const room = await newRoom();
    const { webhook } = await register(room.id, { url: receiver.route('/hang', { status: 204, hang: true }), event: 'room_notification' });
    await register(room.id, { url: receiver.route('/quick', { status: 204 }), event: 'room_notification' });
    // Twice as many hanging requests as the replica holds jobs.
    for (let i = 0; i < 8; i++) await notify(room.id, `slow ${i}`);
    await eventually(() => expect(receiver.to('/hang')).toHaveLength(8), 3_000);

    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sentAt = Date.now();
      await notify(room.id, `quick ${i}`);
      const got = await eventually(() => {
        const found = receiver.to('/quick').find((r) => JSON.parse(r.body).item.message.message === `quick ${i}`);
        expect(found).toBeDefined();
        return found!;
      }, 2_000);
      delays.push(got.at - sentAt);
    }
    expect(Math.max(...delays)).toBeLessThan(1_000);
    await eventually(() => expect(receiver.to('/hang')).toHaveLength(13));

    // Each hanging attempt left a guard copy in the in-flight queue; answered, they are recorded.
    const inFlight = await withChannel((ch) => ch.checkQueue(brokerNames(stack.namespace).deliveryInFlightQueue));
    expect(inFlight.messageCount).toBeGreaterThanOrEqual(13);
    receiver.release();
    const ids = receiver.to('/hang').map((r) => String(r.headers['webhook-id']));
    await eventually(async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1) AND status = 'delivered'`, [ids]);
      expect(rows[0].n).toBe(13);
    });
    expect((await db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [webhook.id])).rows[0].n).toBe(13);
  });

  it('a guard copy makes its attempt only when the attempt was not recorded (the replica making it died)', async () => {
    const room = await newRoom();
    const { webhook } = await register(room.id, { url: receiver.route('/guarded', { status: 204 }), event: 'room_notification' });
    const event = await notificationEvent((await notify(room.id, 'guarded')).messageId);
    const made = deliveryIdOf(event.id, webhook.id);
    await eventually(async () => expect(await deliveryRow(made)).toMatchObject({ status: 'delivered', attempts: 1 }));
    const lost = deliveryIdOf(randomUUID(), webhook.id);
    const job = (deliveryId: string) => ({
      deliveryId, webhookId: webhook.id, event: 'room_notification', eventId: 'e-guard', roomId: room.id, attempt: 1,
      envelopeBody: '{"event":"room_notification"}', createdAt: new Date().toISOString(), guard: true,
    });
    await publishJob(job(made));
    await publishJob(job(lost));
    await eventually(async () => expect(await deliveryRow(lost)).toMatchObject({ status: 'delivered', attempts: 1 }));
    await sleep(200);
    expect(receiver.to('/guarded').map((r) => r.headers['webhook-id'])).toEqual([made, lost]);
  });

  it('follows registration changes within a second, and cancels a job whose webhook is gone', async () => {
    const room = await newRoom();
    const { webhook } = await register(room.id, { url: receiver.route('/removed', { status: 204 }), event: 'room_notification' });
    await rpc.request(DeleteWebhookV1, { actor: { label: 'admin', userId: ownerId }, room: { id: room.id }, webhook: { id: webhook.id } });
    await eventually(() => expect(registrations().get(webhook.id)).toBeUndefined(), 1_000);
    await notificationEvent((await notify(room.id, 'nobody listens')).messageId);

    // A job already queued for it (the webhook deleted while it waited for a retry).
    const deliveryId = deliveryIdOf(randomUUID(), webhook.id);
    await publishJob({
      deliveryId, webhookId: webhook.id, event: 'room_notification', eventId: 'e-1', roomId: room.id, attempt: 2,
      envelopeBody: '{}', createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'cancelled', attempts: 0 }));
    expect(await attemptRows(deliveryId)).toEqual([]);
    expect(receiver.to('/removed')).toEqual([]);
  });

  it('an event seen twice is delivered once, under one delivery id', async () => {
    const room = await newRoom();
    const { webhook } = await register(room.id, { url: receiver.route('/once', { status: 204 }), event: 'room_topic_change' });
    const names = brokerNames(stack.namespace);
    const envelope = {
      id: randomUUID(), type: RoomTopicChangedV2.type, version: 2, occurredAt: new Date().toISOString(),
      payload: { room: { ...room, id: room.id }, sender: 'ci', topic: 'Twice' },
    };
    const conn = await connect(stack.amqpUrl);
    try {
      const ch = await conn.createConfirmChannel();
      const publish = async () => {
        ch.publish(names.eventsExchange, RoomTopicChangedV2.routingKey, Buffer.from(JSON.stringify(envelope)), { persistent: true });
        await ch.waitForConfirms();
      };
      await publish();
      const deliveryId = deliveryIdOf(envelope.id, webhook.id);
      await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 }));
      await publish();
      await sleep(500);
      expect(receiver.to('/once')).toHaveLength(1);
      expect(receiver.to('/once')[0].headers['webhook-id']).toBe(deliveryId);
      expect(JSON.parse(receiver.to('/once')[0].body)).toMatchObject({ event: 'room_topic_change', item: { topic: 'Twice' } });
    } finally {
      await conn.close();
    }
  });

  describe('without WEBHOOK_ALLOWED_NETWORKS', () => {
    let replica: INestApplicationContext;

    beforeAll(async () => {
      await stack.dispatcher!.close();
      replica = await startDispatcher(parseConfig(dispatcherConfigShape, {
        SECRETS_KEYS: TEST_SECRETS_KEYS,
        AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', ...SCHEDULE, WEBHOOK_ALLOWED_NETWORKS: '',
      }));
      extra.push(replica);
    });

    it('refuses loopback, and records the refusal as a failed attempt (not retried)', async () => {
      const room = await newRoom();
      // Opened where it was registered, not where it is delivered: the dispatcher's setting rules.
      const { webhook } = await register(room.id, { url: receiver.route('/loopback', { status: 204 }), event: 'room_notification' },
        () => replica.get(Registrations));
      const event = await notificationEvent((await notify(room.id, 'to loopback')).messageId);
      const deliveryId = deliveryIdOf(event.id, webhook.id);
      await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({
        status: 'failed', attempts: 1, last_status: null, last_error: expect.stringMatching(/^refused: /),
      }));
      const [attempt, ...more] = await attemptRows(deliveryId);
      expect(more).toEqual([]);
      expect(attempt).toMatchObject({ attempt: 1, status: null, error: expect.stringMatching(/^refused: .*127\.0\.0\.1/) });
      await sleep(700);
      expect(receiver.to('/loopback')).toEqual([]);
      expect(await attemptRows(deliveryId)).toHaveLength(1);
    });
  });

  describe('with WEBHOOK_SLOW_RECEIVER_LIMIT=2', () => {
    let replica: INestApplicationContext;

    beforeAll(async () => {
      // This replica alone takes the events (the stack's may still run when this block runs alone).
      await stack.dispatcher!.close().catch(() => undefined);
      while (extra.length) await extra.pop()!.close().catch(() => undefined);
      // Waits long enough to see the busy attempts before their retries come.
      replica = await startDispatcher(parseConfig(dispatcherConfigShape, {
        SECRETS_KEYS: TEST_SECRETS_KEYS,
        AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', ...LIMIT_SCHEDULE, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_SLOW_RECEIVER_LIMIT: '2',
      }));
      extra.push(replica);
    });

    it('sends a slow receiver two attempts at a time; the others fail as busy without a request and are retried', async () => {
      const room = await newRoom();
      const { webhook } = await register(room.id, { url: receiver.route('/stuck', { status: 204, hang: true }), event: 'room_notification' },
        () => replica.get(Registrations));
      await notify(room.id, 'stuck 0');
      await notify(room.id, 'stuck 1');
      await eventually(() => expect(receiver.to('/stuck')).toHaveLength(2));
      await sleep(400); // both outlast 250 ms: the receiver is slow

      const events = [];
      for (let i = 2; i < 5; i++) events.push(await notificationEvent((await notify(room.id, `stuck ${i}`)).messageId));
      for (const event of events) {
        const deliveryId = deliveryIdOf(event.id, webhook.id);
        await eventually(async () => expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'retrying', attempts: 1 }));
        expect(await attemptRows(deliveryId)).toEqual([expect.objectContaining({
          attempt: 1, status: null, duration_ms: 0,
          error: 'busy: not sent: 2 earlier attempts to this webhook are still waiting for its receiver',
        })]);
      }
      expect(receiver.to('/stuck')).toHaveLength(2);

      // The receiver recovers: the two answer, and the retries of the other three are sent and delivered.
      receiver.route('/stuck', { status: 204 });
      receiver.release();
      const ids = events.map((e) => deliveryIdOf(e.id, webhook.id));
      await eventually(async () => {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1) AND status = 'delivered'`, [ids]);
        expect(rows[0].n).toBe(3);
      }, 5_000);
      expect(receiver.to('/stuck')).toHaveLength(5);
    });
  });
});

describe('dispatcher start-up before the rooms service', () => {
  it('waits for the registrations before consuming events, then starts as soon as the rooms service serves', async () => {
    const infra = testInfra();
    const namespace = uniqueName('t');
    const dbUrl = databaseUrl(infra.pgServerUrl, uniqueName('chat_test'));
    const state = trackTestState({ namespace, databaseUrl: dbUrl, retryScheduleMs: retryScheduleOf(SCHEDULE) });
    const common = { AMQP_URL: infra.amqpUrl, BROKER_NAMESPACE: namespace, DATABASE_URL: dbUrl, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0',
      SECRETS_KEYS: TEST_SECRETS_KEYS };
    const names = brokerNames(namespace);
    let dispatcher: INestApplicationContext | undefined;
    let rooms: INestMicroservice | undefined;
    const conn = await connect(infra.amqpUrl);
    try {
      let started = false;
      const starting = startDispatcher(parseConfig(dispatcherConfigShape, { ...common, ...SCHEDULE })).then((app) => {
        started = true;
        dispatcher = app;
      });
      await sleep(1_000);
      expect(started).toBe(false);
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      // Not even declared: nothing consumes room events before the index is loaded.
      await expect(ch.checkQueue(names.dispatcherEventsQueue)).rejects.toThrow(/NOT_FOUND/);

      rooms = await startRoomsService(parseConfig(roomsConfigShape, common));
      const servedAt = Date.now();
      await starting;
      expect(Date.now() - servedAt).toBeLessThan(1_500);
      const check = await conn.createChannel();
      expect((await check.checkQueue(names.dispatcherEventsQueue)).consumerCount).toBe(1);
      expect((await check.checkQueue(names.deliveriesQueue)).consumerCount).toBe(1);
    } finally {
      await dispatcher?.close().catch(() => undefined);
      await rooms?.close().catch(() => undefined);
      await conn.close().catch(() => undefined);
      await removeTestState(infra, state);
    }
  });
});

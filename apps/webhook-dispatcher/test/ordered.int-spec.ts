import { randomUUID } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { AmqpBroker, createLogger, parseConfig, RpcClient, RpcCommandError } from '@app/common';
import { brokerNames, CreateRoomV1, CreateUserV1, CreateWebhookV1, DeleteRoomV1, RedeliverV1, RequestOf, SendNotificationV1 } from '@app/contracts';
import { TEST_SECRETS_KEYS, eventually, Stack, startStack } from '../../../test/support/harness';
import { startDispatcher } from '../src/bootstrap';
import { dispatcherConfigShape } from '../src/config';
import { OrderedDeliveries } from '../src/ordered/ordered-deliveries';
import { Registrations } from '../src/registrations/registrations';
import { Received, Receiver } from './receiver';

const SCHEDULE = { WEBHOOK_RETRY_SCHEDULE: '300ms,300ms' };
const DISPATCHER_ENV = { ...SCHEDULE, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };

/** The text of the notification a request delivered. */
const textOf = (r: Received): string => JSON.parse(r.body).item.message.message;
/** The texts a path got, in arrival order. */
const texts = (requests: Received[]) => requests.map(textOf);

describe('ordered deliveries ("delivery": "ordered"; real RabbitMQ, PostgreSQL and HTTP receiver)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let db: Client;
  let ownerId: number;
  const replicas: INestApplicationContext[] = [];

  const newRoom = async () => (await rpc.request(CreateRoomV1, {
    actor: { label: 't' }, name: `Ordered ${randomUUID().slice(0, 8)}`, owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
  })).room;

  const register = async (roomId: number, spec: Omit<RequestOf<typeof CreateWebhookV1>, 'actor' | 'room'>) => {
    const created = await rpc.request(CreateWebhookV1, { actor: { label: 'admin', userId: ownerId }, room: { id: roomId }, ...spec });
    await eventually(() => expect(stack.dispatcher!.get(Registrations).get(created.webhook.id)).toBeDefined(), 2_000);
    return created.webhook;
  };

  const notify = (roomId: number, message: string) => rpc.request(SendNotificationV1, {
    actor: { label: 'ci', userId: ownerId }, room: { id: roomId }, message, messageFormat: 'text', notify: false, color: 'yellow',
  });

  /** Answers 500 to the first `failures` requests carrying `text`, 204 otherwise. */
  const failingFirst = (text: string, failures: number) => {
    let left = failures;
    return (r: Received) => (textOf(r) === text && left-- > 0 ? { status: 500 } : { status: 204 });
  };

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startStack({ rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    ownerId = (await rpc.request(CreateUserV1, { email: 'ordered@example.com', name: 'Owner' })).user.id;
    await eventually(() => expect(stack.dispatcher!.get(OrderedDeliveries).leading).toBe(true), 5_000);
  });

  afterEach(() => receiver.release());

  afterAll(async () => {
    while (replicas.length) await replicas.pop()!.close().catch(() => undefined);
    await receiver?.stop();
    await broker?.close();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  });

  it('shows the mode in the registration and delivers a room\'s events one at a time, in order, a retry holding back only its own lane', async () => {
    const room = await newRoom();
    const other = await newRoom();
    const ordered = await register(room.id, { url: receiver.route('/ordered', failingFirst('m1', 2)), event: 'room_notification', delivery: 'ordered' });
    expect(ordered.delivery).toBe('ordered');
    await register(room.id, { url: receiver.route('/concurrent', { status: 204 }), event: 'room_notification' });
    await register(other.id, { url: receiver.route('/other-room', { status: 204 }), event: 'room_notification', delivery: 'ordered' });

    for (const m of ['m1', 'm2', 'm3', 'm4', 'm5']) await notify(room.id, m);
    await notify(other.id, 'o1');

    // m1 fails twice (two retries 300 ms apart), then m2..m5 follow it, in order.
    await eventually(() => expect(texts(receiver.to('/ordered'))).toEqual(['m1', 'm1', 'm1', 'm2', 'm3', 'm4', 'm5']), 10_000);
    const toOrdered = receiver.to('/ordered');
    // One at a time: each request only after the one before it was answered (and m2 after m1's success).
    for (let i = 1; i < toOrdered.length; i++) expect(toOrdered[i].at).toBeGreaterThanOrEqual(toOrdered[i - 1].at);
    expect(toOrdered[3].at - toOrdered[0].at).toBeGreaterThanOrEqual(550);
    // Held back: only that webhook's lane in that room. The concurrent webhook and the other
    // room's lane went on meanwhile: all of theirs arrived before the lane's m2, which waited
    // for m1's two retries. (Compared with m2, not with m1's first retry 300 ms in: on a busy
    // machine the last of five notifications sent one after the other can take that long.)
    const laneResumed = toOrdered[3].at;
    expect(texts(receiver.to('/concurrent')).sort()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    for (const r of [...receiver.to('/concurrent'), ...receiver.to('/other-room')]) expect(r.at).toBeLessThan(laneResumed);
    expect(texts(receiver.to('/other-room'))).toEqual(['o1']);
    // Each delivery ended delivered, with its own webhook-id throughout its retries.
    const ids = new Set(toOrdered.slice(0, 3).map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    // Recorded just after (a lane writes an attempt's record while it makes the next one).
    await eventually(async () => {
      const { rows } = await db.query('SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY lane_position', [ordered.id]);
      expect(rows).toEqual([
        { status: 'delivered', attempts: 3 }, ...Array.from({ length: 4 }, () => ({ status: 'delivered', attempts: 1 })),
      ]);
    }, 5_000);
  });

  it('refuses to redeliver a delivery still in its lane (it would overtake the one before it); once it has ended, redelivers it', async () => {
    const room = await newRoom();
    const hook = await register(room.id, { url: receiver.route('/lane-redeliver', (r) => (textOf(r) === 'q1' ? { status: 204, hang: true } : { status: 204 })), event: 'room_notification', delivery: 'ordered' });
    const log = await broker.createRpcClient(brokerNames(stack.namespace).dispatcherCommandQueue, 10_000);
    await notify(room.id, 'q1');
    await notify(room.id, 'q2');
    await eventually(() => expect(texts(receiver.to('/lane-redeliver'))).toEqual(['q1']), 5_000);
    const q2 = await eventually(async () => {
      const { rows } = await db.query(`SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND envelope::text LIKE '%q2%'`, [hook.id]);
      expect(rows).toHaveLength(1);
      return rows[0].id as string;
    }, 5_000);
    // q1 is in flight, q2 waits behind it: a redeliver now would send q2 first.
    const refused = await log.request(RedeliverV1, { delivery: q2, webhookId: hook.id }).then(() => null, (err) => (err instanceof RpcCommandError ? err.error : err));
    expect(refused).toMatchObject({ code: 'conflict', reason: 'rule', field: 'delivery', detail: { problem: expect.stringMatching(/^is pending in the lane of an ordered webhook/) } });
    await new Promise((r) => setTimeout(r, 300));
    expect(texts(receiver.to('/lane-redeliver'))).toEqual(['q1']);
    receiver.release();
    await eventually(() => expect(texts(receiver.to('/lane-redeliver'))).toEqual(['q1', 'q2']), 5_000);
    await eventually(async () => {
      const { rows } = await db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [q2]);
      expect(rows).toEqual([{ status: 'delivered' }]);
    }, 5_000);
    expect(await log.request(RedeliverV1, { delivery: q2, webhookId: hook.id })).toEqual({ deliveryId: q2, attempt: 2 });
    await eventually(() => expect(texts(receiver.to('/lane-redeliver'))).toEqual(['q1', 'q2', 'q2']), 5_000);
  });

  it('goes on with the next deliveries once one has failed for good', async () => {
    const room = await newRoom();
    await register(room.id, { url: receiver.route('/gives-up', failingFirst('f1', 99)), event: 'room_notification', delivery: 'ordered' });
    for (const m of ['f1', 'f2', 'f3']) await notify(room.id, m);
    // Three attempts (the schedule has two retries), then f2 and f3.
    await eventually(() => expect(texts(receiver.to('/gives-up'))).toEqual(['f1', 'f1', 'f1', 'f2', 'f3']), 10_000);
  });

  it('goes on, in order, on another replica when the one making the ordered deliveries stops mid-retry', async () => {
    const second = await startDispatcher(parseConfig(dispatcherConfigShape, {
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', ...DISPATCHER_ENV,
    }));
    replicas.push(second);
    expect(second.get(OrderedDeliveries).leading).toBe(false);
    const room = await newRoom();
    await register(room.id, { url: receiver.route('/handover', failingFirst('h1', 1)), event: 'room_notification', delivery: 'ordered' });
    for (const m of ['h1', 'h2', 'h3']) await notify(room.id, m);
    // h1 failed once: its retry waits 300 ms. The leader stops meanwhile.
    await eventually(() => expect(texts(receiver.to('/handover'))).toEqual(['h1']), 5_000);
    await stack.dispatcher!.close();
    await eventually(() => expect(second.get(OrderedDeliveries).leading).toBe(true), 5_000);
    await eventually(() => expect(texts(receiver.to('/handover'))).toEqual(['h1', 'h1', 'h2', 'h3']), 10_000);
    // And new events go on to the new leader.
    await notify(room.id, 'h4');
    await eventually(() => expect(texts(receiver.to('/handover'))).toEqual(['h1', 'h1', 'h2', 'h3', 'h4']), 10_000);
  });

  it('a delivery its lane is rebuilt with before its first attempt goes to the webhook as it was at its event, though deleted since', async () => {
    const leader = [stack.dispatcher!, ...replicas].find((app) => app.get(OrderedDeliveries).leading)!;
    const room = await newRoom();
    const created = await rpc.request(CreateWebhookV1, {
      actor: { label: 'admin', userId: ownerId }, room: { id: room.id }, url: receiver.route('/rebuilt', { status: 204 }),
      event: 'room_deleted', name: 'Rebuilt', delivery: 'ordered',
    });
    // The deletion removes the webhook in its own transaction; its room_deleted is stamped before that.
    await rpc.request(DeleteRoomV1, { actor: { label: 'admin', userId: ownerId }, room: { id: room.id } });
    await eventually(() => expect(receiver.to('/rebuilt')).toHaveLength(1), 5_000);
    const deliveryId = await eventually(async () => {
      const { rows } = await db.query('SELECT id, status, registrations_version FROM webhook_deliveries WHERE webhook_id = $1', [created.webhook.id]);
      // The row keeps the event's stamp (a bigint, read as a string).
      expect(rows).toEqual([{ id: expect.any(String), status: 'delivered', registrations_version: expect.stringMatching(/^\d+$/) }]);
      return rows[0].id as string;
    }, 5_000);
    expect((await db.query('SELECT id FROM webhooks WHERE id = $1', [created.webhook.id])).rows).toEqual([]);
    // As a leader that wrote the delivery pending and died before its first attempt leaves it.
    await db.query(`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, last_status = NULL, next_attempt_at = NULL WHERE id = $1`, [deliveryId]);
    await db.query('DELETE FROM webhook_attempts WHERE delivery_id = $1', [deliveryId]);

    const next = await startDispatcher(parseConfig(dispatcherConfigShape, {
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', ...DISPATCHER_ENV,
    }));
    replicas.push(next);
    await leader.close();
    await eventually(() => expect(next.get(OrderedDeliveries).leading).toBe(true), 5_000);
    // Its lane rebuilt from the row: the first attempt goes to the webhook as it was when the
    // room was deleted (before, it went to the webhook as it is now, found it gone and was cancelled).
    await eventually(() => expect(receiver.to('/rebuilt')).toHaveLength(2), 5_000);
    expect(receiver.to('/rebuilt').map((r) => JSON.parse(r.body))).toEqual([
      expect.objectContaining({ event: 'room_deleted', item: expect.objectContaining({ room: expect.objectContaining({ id: room.id }) }) }),
      expect.objectContaining({ event: 'room_deleted', item: expect.objectContaining({ room: expect.objectContaining({ id: room.id }) }) }),
    ]);
    await eventually(async () => {
      const { rows } = await db.query('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      expect(rows).toEqual([{ status: 'delivered', attempts: 1 }]);
    }, 5_000);
  });
});

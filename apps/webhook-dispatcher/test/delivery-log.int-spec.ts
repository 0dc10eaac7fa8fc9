import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { AmqpBroker, contextOf, createLogger, RpcClient, RpcCommandError } from '@app/common';
import {
  brokerNames, CreateRoomV1, CreateUserV1, CreateWebhookV1, GetDeliveryV1, ListDeliveriesV1, RecoverDeliveriesV1, RedeliverV1,
  RequestOf, RoomNotificationSentV2, SendNotificationV1,
} from '@app/contracts';
import { EventCapture, eventually, Stack, startStack } from '../../../test/support/harness';
import { deliveryIdOf } from '../src/delivery/delivery-job';
import { StalledRetries } from '../src/delivery-log/stalled-retries';
import { Registrations } from '../src/registrations/registrations';
import { standardWebhookKey } from '../src/signing/standard-webhooks';
import { Answer, Receiver } from './receiver';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The delivery log's commands, served by the dispatcher on its own command queue, against the
 * real PostgreSQL, RabbitMQ and an HTTP receiver: what a receiver got is what the log shows.
 */
describe('the delivery log (dispatcher commands; real RabbitMQ, PostgreSQL and HTTP receiver)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rooms: RpcClient;
  let log: RpcClient;
  let db: Client;
  let capture: EventCapture;
  let ownerId: number;

  const newRoom = async () => (await rooms.request(CreateRoomV1, {
    actor: { label: 't' }, name: `Log ${randomUUID().slice(0, 8)}`, owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
  })).room;

  const register = async (roomId: number, spec: Omit<RequestOf<typeof CreateWebhookV1>, 'actor' | 'room'>) => {
    const created = await rooms.request(CreateWebhookV1, { actor: { label: 'admin', userId: ownerId }, room: { id: roomId }, ...spec });
    await eventually(() => expect(stack.dispatcher!.get(Registrations).get(created.webhook.id)).toBeDefined(), 2_000);
    // A user's registration: its own secret, always answered (only an add-on's has none).
    return { ...created, secret: created.secret! };
  };

  /** A notification in the room; answers the delivery id of its event to `webhookId`. */
  const notify = async (roomId: number, webhookId: number, message: string, traceparent?: string) => {
    const sent = await rooms.request(SendNotificationV1, {
      actor: { label: 'ci', userId: ownerId }, room: { id: roomId }, message, messageFormat: 'text', notify: false, color: 'yellow',
    }, traceparent ? contextOf(traceparent) : undefined);
    const event = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === sent.messageId);
    return deliveryIdOf(event.id, webhookId);
  };

  const list = (webhookId: number, filter: Partial<RequestOf<typeof ListDeliveriesV1>> = {}) =>
    log.request(ListDeliveriesV1, { webhookId, startIndex: 0, limit: 101, ...filter }).then((r) => r.deliveries);
  const detail = (delivery: string, webhookId?: number) =>
    log.request(GetDeliveryV1, { delivery, ...(webhookId !== undefined ? { webhookId } : {}) }).then((r) => r.delivery);
  /** The command's refusal, as the caller gets it. */
  const refusal = (p: Promise<unknown>) => p.then(() => null, (err) => (err instanceof RpcCommandError ? err.error : err));

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startStack({
      rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
      // Three attempts, 200 ms and 400 ms apart, then a delivery has failed.
      dispatcher: { WEBHOOK_RETRY_SCHEDULE: '200ms,400ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_CONCURRENCY: '16' },
    });
    const names = brokerNames(stack.namespace);
    broker = await AmqpBroker.connect(stack.amqpUrl, names, createLogger('test', 'silent'));
    rooms = await broker.createRpcClient(names.roomsCommandQueue, 10_000);
    log = await broker.createRpcClient(names.dispatcherCommandQueue, 10_000);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    ownerId = (await rooms.request(CreateUserV1, { email: 'log-owner@example.com', name: 'Owner' })).user.id;
  });

  afterAll(async () => {
    await receiver?.stop();
    await capture?.stop();
    await broker?.close();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  });

  it('serves the commands on the dispatcher\'s own queue', async () => {
    expect(await log.served()).toBe(true);
    expect(brokerNames(stack.namespace).dispatcherCommandQueue).toBe(`${stack.namespace}.webhook-dispatcher.commands`);
  });

  describe('a receiver that fails, then succeeds', () => {
    let healthy = false;
    let roomId: number;
    let webhookId: number;
    let secret: string;
    let deliveryId: string;
    const started = new Date();
    const hits = () => receiver.to('/flaky');

    beforeAll(async () => {
      roomId = (await newRoom()).id;
      const url = receiver.route('/flaky', (): Answer => (healthy
        ? { status: 200, body: JSON.stringify({ message: 'thanks', message_format: 'text' }), headers: { 'content-type': 'application/json' } }
        : { status: 500, body: 'down for maintenance', headers: { 'content-type': 'text/plain', 'x-trace': 'abc' } }));
      ({ webhook: { id: webhookId }, secret } = await register(roomId, { url, event: 'room_notification', authentication: 'jwt', name: 'Flaky' }));
      deliveryId = await notify(roomId, webhookId, 'will it arrive?');
      await eventually(async () => expect((await list(webhookId))[0]).toMatchObject({ status: 'failed', attempts: 3 }), 5_000);
    });

    it('lists the failed delivery, newest first, with its last attempt; filters by status, event and since', async () => {
      const [item, ...others] = await list(webhookId);
      expect(others).toEqual([]);
      expect(item).toEqual({
        id: deliveryId, webhookId, event: 'room_notification', status: 'failed', created: expect.any(String), attempts: 3, nextAttemptAt: null,
        lastAttempt: { attempt: 3, at: expect.any(String), statusCode: 500, durationMs: expect.any(Number), error: null },
        position: { createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/), id: deliveryId },
      });
      expect(item.position!.createdAt.slice(0, 23)).toBe(item.created.slice(0, 23));
      // The id is the webhook-id header the receiver saw, on every attempt.
      expect(hits().map((h) => h.headers['webhook-id'])).toEqual([deliveryId, deliveryId, deliveryId]);

      expect(await list(webhookId, { status: 'failed' })).toHaveLength(1);
      expect(await list(webhookId, { status: 'delivered' })).toEqual([]);
      expect(await list(webhookId, { event: 'room_message' })).toEqual([]);
      expect(await list(webhookId, { since: started.toISOString() })).toHaveLength(1);
      expect(await list(webhookId, { since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
      expect(await list(webhookId, { startIndex: 1 })).toEqual([]);
    });

    it('shows the delivery in full: the request as sent with its credentials cut short, every attempt, what the receiver answered', async () => {
      const d = await detail(deliveryId, webhookId);
      const last = hits()[2];
      expect(d.request.body).toBe(last.body);
      expect(d.request.headers).toEqual({
        'Content-Type': 'application/json',
        'Content-Length': last.headers['content-length'],
        'User-Agent': last.headers['user-agent'],
        'webhook-id': deliveryId,
        'webhook-timestamp': last.headers['webhook-timestamp'],
        'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{8}…$/),
        Authorization: expect.stringMatching(/^JWT [\w-]{8}…$/),
      });
      // Every header shown but the credentials is the one the receiver got, value for value.
      for (const [name, value] of Object.entries(d.request.headers!)) {
        if (name !== 'webhook-signature' && name !== 'Authorization') expect([name, last.headers[name.toLowerCase()]]).toEqual([name, value]);
      }
      // The request rebuilt at the last attempt's time is the one sent: the same signature, shown cut.
      expect(d.request.headers!['webhook-signature']).toBe(`${String(last.headers['webhook-signature']).slice(0, 11)}…`);
      expect(d.request.url).toBe(`${receiver.base}/flaky?signed_request=${String(last.headers.authorization).slice(4, 12)}…`);
      expect(JSON.stringify(d)).not.toContain(secret);
      expect(JSON.stringify(d)).not.toContain(String(last.headers.authorization).slice(4));

      expect(d.attemptLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([[1, 500, null], [2, 500, null], [3, 500, null]]);
      expect(d.attemptLog[0]).toMatchObject({
        responseBody: 'down for maintenance', responseHeaders: expect.objectContaining({ 'content-type': 'text/plain', 'x-trace': 'abc' }),
      });
      expect(d.reply).toEqual({ messageId: null, error: null });
    });

    it('answers not_found for an unknown delivery and for another webhook\'s', async () => {
      expect(await refusal(detail(randomUUID(), webhookId))).toMatchObject({ code: 'not_found', reason: 'delivery_not_found' });
      expect(await refusal(detail(deliveryId, webhookId + 1000))).toMatchObject({ code: 'not_found', reason: 'delivery_not_found', detail: { ref: deliveryId } });
      expect(await refusal(log.request(RedeliverV1, { delivery: deliveryId, webhookId: webhookId + 1000 }))).toMatchObject({ code: 'not_found' });
      // The operator's CLI names the delivery alone.
      expect((await detail(deliveryId)).id).toBe(deliveryId);
      expect(await refusal(log.request(GetDeliveryV1, { delivery: 'not-a-uuid' } as never))).toMatchObject({ code: 'invalid', field: 'delivery' });
    });

    it('redeliver makes exactly one more attempt, with the same webhook-id and a fresh signature, not retried when it fails', async () => {
      const before = hits().length;
      expect(await log.request(RedeliverV1, { delivery: deliveryId, webhookId })).toEqual({ deliveryId, attempt: 4 });
      await eventually(() => expect(hits()).toHaveLength(before + 1), 3_000);
      await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'failed', attempts: 4 }));
      // The schedule would have retried within 200 ms: nothing more comes.
      await sleep(800);
      expect(hits()).toHaveLength(before + 1);
      const again = hits()[before];
      expect(again.headers['webhook-id']).toBe(deliveryId);
      expect(again.body).toBe(hits()[0].body);
      expect(new Webhook(standardWebhookKey(secret)).verify(again.body, {
        'webhook-id': String(again.headers['webhook-id']),
        'webhook-timestamp': String(again.headers['webhook-timestamp']),
        'webhook-signature': String(again.headers['webhook-signature']),
      })).toEqual(JSON.parse(again.body));
      const claims = jwt.verify(String(again.headers.authorization).replace(/^JWT /, ''), secret) as jwt.JwtPayload;
      // The JWT names the user who caused the event, as the first attempt's did (kept with the delivery).
      expect(claims).toMatchObject({ iss: String(webhookId), sub: String(ownerId) });
      expect((await detail(deliveryId)).attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    });

    it('recover sends the failed delivery again once the receiver is back: delivered, the same webhook-id, its reply posted', async () => {
      healthy = true;
      const before = hits().length;
      expect(await log.request(RecoverDeliveriesV1, { webhookId, since: started.toISOString() })).toEqual({ count: 1 });
      await eventually(async () => expect((await list(webhookId))[0]).toMatchObject({ status: 'delivered', attempts: 5 }), 5_000);
      expect(hits()).toHaveLength(before + 1);
      expect(hits()[before].headers['webhook-id']).toBe(deliveryId);
      await eventually(async () => expect((await detail(deliveryId)).reply).toEqual({ messageId: expect.any(String), error: null }));
      // Nothing failed is left to recover.
      expect(await log.request(RecoverDeliveriesV1, { webhookId, since: started.toISOString() })).toEqual({ count: 0 });
    });

    it('redeliver of a delivered delivery makes one more attempt, and its outcome is the status', async () => {
      healthy = false;
      expect(await log.request(RedeliverV1, { delivery: deliveryId })).toEqual({ deliveryId, attempt: 6 });
      await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'failed', attempts: 6 }), 3_000);
      healthy = true;
    });
  });

  it('recover starts the retry schedule afresh, numbering attempts on, and takes only failed deliveries since the time given', async () => {
    const roomId = (await newRoom()).id;
    const { webhook } = await register(roomId, { url: receiver.route('/down', { status: 503 }), event: 'room_notification' });
    const older = await notify(roomId, webhook.id, 'first');
    await eventually(async () => expect((await detail(older)).status).toBe('failed'), 5_000);
    const cut = new Date();
    const newer = await notify(roomId, webhook.id, 'second');
    await eventually(async () => expect((await detail(newer)).status).toBe('failed'), 5_000);
    const sent = receiver.to('/down').length;

    expect(await log.request(RecoverDeliveriesV1, { webhookId: webhook.id, since: cut.toISOString() })).toEqual({ count: 1 });
    expect((await detail(newer)).status).toBe('retrying');
    // Three more attempts (the whole schedule again), then failed once more.
    await eventually(async () => expect(await detail(newer)).toMatchObject({ status: 'failed', attempts: 6 }), 5_000);
    const attempts = receiver.to('/down').slice(sent);
    expect(attempts.map((h) => h.headers['webhook-id'])).toEqual([newer, newer, newer]);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(170);
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(350);
    expect(await detail(older)).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('queues again a delivery left retrying with no job (a recover that died before publishing), once it is long past due, in its trace', async () => {
    let up = false;
    const roomId = (await newRoom()).id;
    const { webhook } = await register(roomId, { url: receiver.route('/stalled', (): Answer => ({ status: up ? 204 : 503 })), event: 'room_notification' });
    const traceId = '5e0e47364bf92f3577b34da6a3ce929d';
    const deliveryId = await notify(roomId, webhook.id, 'stalled', `00-${traceId}-b7ad6b7169203331-00`);
    await eventually(async () => expect((await detail(deliveryId)).status).toBe('failed'), 5_000);
    // What a recover leaves when its process dies between taking the delivery and publishing
    // its job, an hour later: retrying, due long ago, and nothing in the broker to retry it.
    await db.query(`UPDATE webhook_deliveries SET status = 'retrying', next_attempt_at = now() - interval '1 hour' WHERE id = $1`, [deliveryId]);
    up = true;
    const sent = receiver.to('/stalled').length;
    const sweeper = stack.dispatcher!.get(StalledRetries);
    expect(await sweeper.runOnce()).toBe(1);
    await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'delivered', attempts: 4 }), 5_000);
    expect(receiver.to('/stalled').slice(sent).map((h) => h.headers['webhook-id'])).toEqual([deliveryId]);
    // Rebuilt from its row alone, the job still belongs to the trace of the notification.
    const traces = receiver.to('/stalled').map((h) => String(h.headers.traceparent).split('-')[1]);
    expect(traces).toEqual(Array(sent + 1).fill(traceId));
    // Nothing is stalled any more; one merely due (not past the grace) is left to its job.
    expect(await sweeper.runOnce()).toBe(0);
    await db.query(`UPDATE webhook_deliveries SET status = 'retrying', next_attempt_at = now() - interval '1 minute' WHERE id = $1`, [deliveryId]);
    expect(await sweeper.runOnce()).toBe(0);
    // Nor one late behind a longer retry of its delay queue (a queue expires only its head): due
    // an hour ago, but its job is back by its tier, within the grace.
    await db.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 hour', parked_until = now() + interval '1 minute' WHERE id = $1`, [deliveryId]);
    expect(await sweeper.runOnce()).toBe(0);
    // Once that is long past too, its job is lost: queued again, and the bound goes with the parked job.
    await db.query(`UPDATE webhook_deliveries SET parked_until = now() - interval '1 hour' WHERE id = $1`, [deliveryId]);
    expect(await sweeper.runOnce()).toBe(1);
    await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'delivered', attempts: 5 }), 5_000);
    expect((await db.query('SELECT parked_until FROM webhook_deliveries WHERE id = $1', [deliveryId])).rows[0].parked_until).toBeNull();
  });

  it('redeliver of a delivery still in its retries makes its next attempt now, and the retries go on from there', async () => {
    const roomId = (await newRoom()).id;
    const { webhook } = await register(roomId, { url: receiver.route('/in-retries', { status: 503 }), event: 'room_notification' });
    const deliveryId = await notify(roomId, webhook.id, 'in its retries');
    await eventually(async () => expect((await detail(deliveryId)).status).toBe('failed'), 5_000);
    // As it stood after its first attempt, its retry waiting an hour (gone here: only the redeliver makes attempt 2).
    await db.query(`UPDATE webhook_deliveries SET status = 'retrying', attempts = 1, next_attempt_at = now() + interval '1 hour' WHERE id = $1`, [deliveryId]);
    await db.query('DELETE FROM webhook_attempts WHERE delivery_id = $1 AND attempt > 1', [deliveryId]);
    const before = receiver.to('/in-retries').length;
    expect(await log.request(RedeliverV1, { delivery: deliveryId, webhookId: webhook.id })).toEqual({ deliveryId, attempt: 2 });
    // Attempt 2 fails and is retried on the schedule (attempt 3, 400 ms later), not left failed.
    await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'failed', attempts: 3 }), 5_000);
    expect(receiver.to('/in-retries')).toHaveLength(before + 2);
    expect((await detail(deliveryId)).attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3]);
  });

  it('redeliver of a recovered delivery still in its retries keeps the schedule the recover started again', async () => {
    const roomId = (await newRoom()).id;
    const { webhook } = await register(roomId, { url: receiver.route('/recovered-retries', { status: 500 }), event: 'room_notification' });
    const deliveryId = await notify(roomId, webhook.id, 'recovered, then redelivered');
    await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'failed', attempts: 3 }), 5_000);
    expect(await log.request(RecoverDeliveriesV1, { webhookId: webhook.id, since: '2020-01-01T00:00:00Z' })).toEqual({ count: 1 });
    await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'failed', attempts: 6 }), 5_000);
    // Back as it stood after the recover's first attempt (4), its retry waiting an hour (gone
    // here: only the redeliver makes attempt 5). The row keeps what the recover wrote.
    await db.query(`UPDATE webhook_deliveries SET status = 'retrying', attempts = 4, next_attempt_at = now() + interval '1 hour' WHERE id = $1`, [deliveryId]);
    await db.query('DELETE FROM webhook_attempts WHERE delivery_id = $1 AND attempt > 4', [deliveryId]);
    const before = receiver.to('/recovered-retries').length;
    expect(await log.request(RedeliverV1, { delivery: deliveryId, webhookId: webhook.id })).toEqual({ deliveryId, attempt: 5 });
    // Attempt 5 is the second of the schedule the recover started, so its failure is retried
    // (attempt 6, 400 ms later); counted from the first schedule it was past its end, and ended the delivery.
    await eventually(async () => expect(await detail(deliveryId)).toMatchObject({ status: 'failed', attempts: 6 }), 5_000);
    expect(receiver.to('/recovered-retries')).toHaveLength(before + 2);
    expect((await detail(deliveryId)).attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses a recover from a time in the future, naming since', async () => {
    expect(await refusal(log.request(RecoverDeliveriesV1, { webhookId: 1, since: new Date(Date.now() + 3_600_000).toISOString() })))
      .toMatchObject({ code: 'invalid', reason: 'rule', field: 'since', detail: { problem: 'must not be in the future' } });
    expect(await refusal(log.request(RecoverDeliveriesV1, { webhookId: 1, since: 'yesterday' }))).toMatchObject({ code: 'invalid', field: 'since' });
  });

  it('refuses a since PostgreSQL cannot read (year 0, an offset beyond ±15:59), naming since, in the list and the recover', async () => {
    const offset = { code: 'invalid', reason: 'rule', field: 'since', detail: { problem: 'must have a UTC offset from -15:59 to +15:59 (got "2025-01-01T00:00:00+18:00")' } };
    expect(await refusal(log.request(RecoverDeliveriesV1, { webhookId: 1, since: '2025-01-01T00:00:00+18:00' }))).toMatchObject(offset);
    expect(await refusal(list(1, { since: '2025-01-01T00:00:00+18:00' }))).toMatchObject(offset);
    expect(await refusal(log.request(RecoverDeliveriesV1, { webhookId: 1, since: '0000-01-01T00:00:00Z' })))
      .toMatchObject({ code: 'invalid', field: 'since', detail: { problem: 'must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (got "0000-01-01T00:00:00Z")' } });
    // The edges themselves are read by PostgreSQL.
    expect(await list(987_654, { since: '2025-01-01T00:00:00-15:59' })).toEqual([]);
    expect(await list(987_654, { since: '0001-01-01T00:00:00Z' })).toEqual([]);
  });

  describe('pages after a position (keyset)', () => {
    // A webhook of its own (the log answers any id): rows written here, at chosen times.
    const webhookId = 1_500_000_000 + Math.floor(Math.random() * 100_000_000);
    const SAME = '2026-02-01T00:00:00.123456Z';
    /** Deliveries at these times, in one statement; answers their ids. */
    const insertAt = async (times: string[], event = 'room_notification') => (await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, status, attempts, envelope, created_at)
       SELECT gen_random_uuid(), $1::int, $3, 'keyset-' || t.i, 'delivered', 1, '{}', t.at
         FROM unnest($2::timestamptz[]) WITH ORDINALITY AS t (at, i)
       RETURNING id`,
      [webhookId, times, event],
    )).rows.map((r: { id: string }) => r.id);
    /** The log's order as PostgreSQL sorts it: created_at, then id, both descending. */
    const inLogOrder = async () => (await db.query(
      'SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC', [webhookId],
    )).rows.map((r: { id: string }) => r.id);
    /** Every page of `size`, each after the last item of the one before, running `between` between pages. */
    const follow = async (size: number, filter: Partial<RequestOf<typeof ListDeliveriesV1>> = {}, between = async () => undefined as unknown) => {
      const seen: string[] = [];
      let after: RequestOf<typeof ListDeliveriesV1>['after'];
      for (let pages = 0; pages < 100; pages++) {
        const page = await list(webhookId, { ...filter, limit: size + 1, ...(after ? { after, startIndex: 999_999 } : {}) });
        seen.push(...page.slice(0, size).map((d) => d.id));
        if (page.length <= size) return seen;
        after = page[size - 1].position;
        await between();
      }
      throw new Error('no last page');
    };

    beforeAll(async () => {
      await insertAt([
        // Six deliveries of one instant, to the microsecond: only their ids order them.
        ...Array(6).fill(SAME),
        // Three more of its millisecond, a few microseconds apart (a Date would make them all .123).
        '2026-02-01T00:00:00.123999Z', '2026-02-01T00:00:00.123457Z', '2026-02-01T00:00:00.123001Z',
        '2026-02-01T00:00:00.122Z', '2026-02-01T00:00:01Z', '2026-01-31T23:59:59.999999Z',
      ]);
    });

    it('gives each item its position, created_at to the microsecond; created stays in milliseconds', async () => {
      const items = await list(webhookId);
      expect(items.map((d) => d.id)).toEqual(await inLogOrder());
      const at = (d: (typeof items)[number]) => [d.created, d.position?.createdAt];
      expect(items.slice(0, 3).map(at)).toEqual([
        ['2026-02-01T00:00:01.000Z', '2026-02-01T00:00:01.000000Z'],
        ['2026-02-01T00:00:00.123Z', '2026-02-01T00:00:00.123999Z'],
        ['2026-02-01T00:00:00.123Z', '2026-02-01T00:00:00.123457Z'],
      ]);
      expect(items.filter((d) => d.position?.createdAt === SAME)).toHaveLength(6);
      for (const d of items) expect(d.position?.id).toBe(d.id);
    });

    it('pages deliveries of one instant and one millisecond each once, in the log\'s order, whatever the page size', async () => {
      const all = await inLogOrder();
      for (const size of [1, 2, 4, 5]) expect(await follow(size)).toEqual(all);
      // With a filter, from its own index.
      expect(await follow(2, { event: 'room_notification' })).toEqual(all);
      expect(await follow(2, { status: 'failed' })).toEqual([]);
    });

    it('is moved along by nothing created meanwhile: deliveries arriving at the top between pages are not seen twice', async () => {
      const before = await inLogOrder();
      let n = 0;
      // Newer than all: each lands at the top, where an offset would count it and shift the pages.
      const arrive = async () => insertAt([new Date(Date.UTC(2026, 1, 2, 0, 0, n++)).toISOString()]);
      const seen = await follow(3, {}, arrive);
      expect(n).toBeGreaterThan(1);
      expect(seen).toEqual(before);
      // Read by offset, the same pages would have shown deliveries twice (what the cursor is for).
      const byOffset: string[] = [];
      for (let start = 0; ; start += 3) {
        const page = await list(webhookId, { startIndex: start, limit: 4 });
        byOffset.push(...page.slice(0, 3).map((d) => d.id));
        if (page.length <= 3) break;
        await arrive();
      }
      expect(new Set(byOffset).size).toBeLessThan(byOffset.length);
    });

    it('refuses a position not to the microsecond in UTC, or without a delivery id, naming after', async () => {
      const id = randomUUID();
      for (const createdAt of ['2026-02-01T00:00:00.123Z', '2026-02-01T01:00:00.123456+01:00', '2026-02-30T00:00:00.000000Z']) {
        expect(await refusal(list(webhookId, { after: { createdAt, id } }))).toMatchObject({ code: 'invalid', reason: 'rule', field: 'after' });
      }
      expect(await refusal(list(webhookId, { after: { createdAt: SAME, id: '42' } })))
        .toMatchObject({ code: 'invalid', field: 'after', detail: { problem: 'must be a delivery id (a UUID)' } });
    });
  });

  it('recovers ten thousand failed deliveries without holding up the log: one statement, queued in batches, all delivered', async () => {
    const roomId = (await newRoom()).id;
    const { webhook } = await register(roomId, { url: receiver.route('/bulk', { status: 204 }), event: 'room_notification' });
    const total = 10_000;
    // Failed deliveries as the worker leaves them, created a second apart, oldest first.
    await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, last_status, envelope, created_at)
       SELECT gen_random_uuid(), $1::int, 'room_notification', 'bulk-' || i, $2::int, 'failed', 3, 503,
              json_build_object('event', 'room_notification', 'item', json_build_object('n', i), 'webhook_id', $1::int)::text,
              now() - make_interval(secs => $3::int - i)
         FROM generate_series(1, $3::int) AS i`,
      [webhook.id, roomId, total],
    );
    const startedAt = Date.now();
    const recovering = log.request(RecoverDeliveriesV1, { webhookId: webhook.id, since: new Date(Date.now() - 86_400_000).toISOString() });
    // The queue is served meanwhile.
    const listed = await list(webhook.id, { limit: 5 });
    expect(listed).toHaveLength(5);
    expect(await recovering).toEqual({ count: total });
    const tookMs = Date.now() - startedAt;
    expect(tookMs).toBeLessThan(8_000);
    const { rows: [left] } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'failed'`, [webhook.id]);
    expect(left.n).toBe(0);

    await eventually(async () => {
      const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY status`, [webhook.id]);
      expect(rows).toEqual([{ status: 'delivered', n: total }]);
      // (About 30 s alone; twice that beside the delivery-faults suite. The speed asserted is the recover's, above.)
    }, 100_000);
    const bodies = receiver.to('/bulk').map((h) => JSON.parse(h.body).item.n as number);
    expect(new Set(bodies).size).toBe(total);
    // Oldest first: queued in creation order (a few workers at once may swap neighbours).
    expect(bodies[0]).toBeLessThanOrEqual(16);
    expect(bodies[total - 1]).toBeGreaterThan(total - 16);
    const attempts = await db.query(`SELECT min(a.attempt)::int AS lo, max(a.attempt)::int AS hi FROM webhook_attempts a
      JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = $1`, [webhook.id]);
    expect(attempts.rows[0]).toEqual({ lo: 4, hi: 4 });
  }, 130_000);
});

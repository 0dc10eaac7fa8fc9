import { DataSource } from 'typeorm';
import { dropTestDatabase, testDatabaseUrl } from '../../../test/support/common';
import { openDispatcherDatabase } from '../src/database/database';
import { DeliveryStatus } from '../src/delivery/delivery-decisions';
import { DeliveryJob, deliveryIdOf } from '../src/delivery/delivery-job';
import { AttemptToRecord, DeliveryRepository } from '../src/delivery/delivery.repository';
import { DeliveryLogRepository } from '../src/delivery-log/delivery-log.repository';
import { toDeliveryView } from '../src/delivery-log/delivery-log-views';

/** How attempts of one delivery made by two chains at once (after a crash or a broker outage) are recorded. */
describe('recording attempts (real PostgreSQL)', () => {
  let url: string;
  let db: DataSource;
  let repository: DeliveryRepository;

  const job = (eventId: string, attempt: number): DeliveryJob => ({
    deliveryId: deliveryIdOf(eventId, 7), webhookId: 7, event: 'room_notification', eventId, roomId: 3, attempt,
    envelopeBody: '{"event":"room_notification"}', createdAt: new Date().toISOString(), replyDepth: 0, actorUserId: null, registrationsVersion: null,
  });
  const attempt = (eventId: string, n: number, status: DeliveryStatus, answer: number, startedAt = new Date()): AttemptToRecord => ({
    job: job(eventId, n),
    record: { deliveryId: deliveryIdOf(eventId, 7), attempt: n, startedAt, durationMs: 5, status: answer, error: null, responseExcerpt: null, responseHeaders: null },
    state: { status, attempts: n, lastStatus: answer, lastError: null, nextAttemptAt: status === 'retrying' ? new Date(Date.now() + 1_000) : null,
      parkedUntil: status === 'retrying' ? new Date(Date.now() + 1_100) : null },
  });
  const row = async (eventId: string) =>
    (await db.query('SELECT status, attempts, last_status FROM webhook_deliveries WHERE id = $1', [deliveryIdOf(eventId, 7)]))[0];

  beforeAll(async () => {
    url = testDatabaseUrl('records');
    db = await openDispatcherDatabase(url, 2);
    repository = new DeliveryRepository(db);
  });

  afterAll(async () => {
    await db?.destroy().catch(() => undefined);
    await dropTestDatabase(url);
  });

  it('keeps the state of the latest attempt when an earlier one of another chain is recorded after it', async () => {
    // One chain's attempt 3 failed for good; the other chain's attempt 2 (its retry held up by a
    // broker outage) is recorded after it. `retrying` with 3 attempts would leave no job to
    // make: the chain's attempt 3 is dropped as made.
    await repository.recordAttempts([attempt('e-late', 1, 'retrying', 500)]);
    await repository.recordAttempts([attempt('e-late', 3, 'failed', 500)]);
    await repository.recordAttempts([attempt('e-late', 2, 'retrying', 503)]);
    expect(await row('e-late')).toEqual({ status: 'failed', attempts: 3, last_status: 500 });
    expect((await db.query('SELECT attempt FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [deliveryIdOf('e-late', 7)])).map((r: { attempt: number }) => r.attempt))
      .toEqual([1, 2, 3]);
  });

  it('takes the later record of the same attempt made twice', async () => {
    await repository.recordAttempts([attempt('e-twice', 2, 'retrying', 500)]);
    await repository.recordAttempts([attempt('e-twice', 2, 'failed', 410)]);
    expect(await row('e-twice')).toEqual({ status: 'failed', attempts: 2, last_status: 410 });
  });

  it('marks a delivery delivered by an earlier attempt recorded after a later one that failed', async () => {
    // After a kill -9: the survivor remakes attempt 3 (its record was lost) while the retry the
    // dead replica parked makes attempt 4; the 2xx of attempt 3 is written last.
    await repository.recordAttempts([attempt('e-late-ok', 4, 'failed', 500)]);
    await repository.recordAttempts([attempt('e-late-ok', 3, 'delivered', 204)]);
    expect(await row('e-late-ok')).toEqual({ status: 'delivered', attempts: 4, last_status: 204 });
  });

  it('marks a delivery delivered when its 2xx is written in one statement with a later attempt that failed', async () => {
    await repository.recordAttempts([attempt('e-together', 4, 'failed', 500), attempt('e-together', 3, 'delivered', 204)]);
    expect(await row('e-together')).toEqual({ status: 'delivered', attempts: 4, last_status: 204 });
  });

  it('keeps a delivered delivery delivered', async () => {
    await repository.recordAttempts([attempt('e-done', 2, 'delivered', 204)]);
    await repository.recordAttempts([attempt('e-done', 2, 'retrying', 500)]);
    expect(await row('e-done')).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('keeps every request of an attempt made twice, and lists the delivery once', async () => {
    // After a kill -9: the redelivered job's attempt 1 (a 204) and the redone event's (a 500),
    // 40 ms apart, recorded one after the other; then a third request of it, and the second
    // written again (the same request: nothing added).
    const first = new Date(Date.now() - 1_000);
    const second = new Date(first.getTime() + 40);
    const third = new Date(first.getTime() + 90);
    await repository.recordAttempts([attempt('e-two-requests', 1, 'delivered', 204, first)]);
    await repository.recordAttempts([attempt('e-two-requests', 1, 'retrying', 500, second)]);
    await repository.recordAttempts([attempt('e-two-requests', 1, 'retrying', 503, third), attempt('e-two-requests', 1, 'retrying', 500, second)]);
    expect(await row('e-two-requests')).toMatchObject({ status: 'delivered', attempts: 1 });

    const log = new DeliveryLogRepository(db);
    const id = deliveryIdOf('e-two-requests', 7);
    expect((await log.attempts(id)).map((a) => [a.attempt, a.status, a.started_at.getTime(), a.duration_ms, a.response_headers]))
      .toEqual([[1, 204, first.getTime(), 5, null], [1, 500, second.getTime(), 5, null], [1, 503, third.getTime(), 5, null]]);
    const listed = (await log.list({ webhookId: 7, startIndex: 0, limit: 100 })).filter((r) => r.id === id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'delivered', attempts: 1, last_attempt: 1, last_status: 204 });
    // What the log shows as its last attempt: the request that delivered it, not the later failures.
    expect(toDeliveryView(listed[0]).lastAttempt).toMatchObject({ attempt: 1, statusCode: 204, at: first.toISOString() });
    expect(toDeliveryView((await log.find(id))!).lastAttempt).toMatchObject({ statusCode: 204, at: first.toISOString() });
  });

  it('shows, of an attempt made twice, the request that started last, or the one that delivered it', async () => {
    // The row holds the request recorded first; the later one is its repeat.
    const first = new Date(Date.now() - 1_000);
    const second = new Date(first.getTime() + 30);
    const log = new DeliveryLogRepository(db);
    const shown = async (eventId: string) => {
      const id = deliveryIdOf(eventId, 7);
      const listed = (await log.list({ webhookId: 7, startIndex: 0, limit: 100 })).find((r) => r.id === id)!;
      const found = (await log.find(id))!;
      expect(toDeliveryView(found).lastAttempt).toEqual(toDeliveryView(listed).lastAttempt);
      return { status: listed.status, last: toDeliveryView(listed).lastAttempt };
    };

    await repository.recordAttempts([attempt('e-retried-twice', 1, 'retrying', 500, first)]);
    await repository.recordAttempts([attempt('e-retried-twice', 1, 'retrying', 503, second)]);
    expect(await shown('e-retried-twice')).toMatchObject({ status: 'retrying', last: { attempt: 1, statusCode: 503, at: second.toISOString() } });

    // The first request failed, its copy delivered it: the status and the last attempt agree.
    await repository.recordAttempts([attempt('e-delivered-by-copy', 1, 'retrying', 500, first)]);
    await repository.recordAttempts([attempt('e-delivered-by-copy', 1, 'delivered', 204, second)]);
    expect(await shown('e-delivered-by-copy')).toMatchObject({ status: 'delivered', last: { attempt: 1, statusCode: 204, at: second.toISOString() } });
  });

  it('keeps both requests of an attempt made twice when they are written in one batch', async () => {
    const first = new Date(Date.now() - 1_000);
    const second = new Date(first.getTime() + 25);
    await repository.recordAttempts([attempt('e-one-batch', 2, 'retrying', 500, second), attempt('e-one-batch', 2, 'delivered', 204, first)]);
    expect(await row('e-one-batch')).toMatchObject({ status: 'delivered', attempts: 2 });
    const requests = await new DeliveryLogRepository(db).attempts(deliveryIdOf('e-one-batch', 7));
    expect(requests.map((a) => [a.attempt, a.status, a.started_at.getTime()])).toEqual([[2, 204, first.getTime()], [2, 500, second.getTime()]]);
  });
});

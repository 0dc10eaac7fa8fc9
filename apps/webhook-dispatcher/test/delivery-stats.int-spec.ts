import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dropTestDatabase, testDatabaseUrl } from '../../../test/support/common';
import { openDispatcherDatabase } from '../src/database/database';
import { WEBHOOK_DISABLED } from '../src/delivery/disabled-webhook';
import { DELIVERY_STATS_SQL, DeliveryLogRepository } from '../src/delivery-log/delivery-log.repository';
import { DeliveryStats } from '../src/delivery-log/delivery-stats.usecase';

const HOUR = 3_600_000;
const WEBHOOK = 4242;
const OTHER = 4343;

/**
 * Delivery statistics read from the dispatcher's own tables in a database of this test's,
 * migrated as the dispatcher migrates them: what is counted as what, in which bucket, the
 * latency of which attempts, and the plan PostgreSQL takes on a log of other webhooks' rows.
 */
describe('delivery statistics (real PostgreSQL)', () => {
  let url: string;
  let db: DataSource;
  let stats: DeliveryStats;
  /** The clock the use case reads: fixed, so that buckets do not move under the test. */
  let now: Date;
  /** The start of the hour `now` is in. */
  let thisHour: number;

  /** A delivery of `webhookId` created at `at`, with one attempt per duration (`errors[i]`: that attempt's error). */
  const delivery = async (webhookId: number, at: number, status: string, durations: number[], errors: (string | null)[] = []) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, envelope, created_at)
       VALUES ($1, $2, 'room_message', $3, 1, $4, $5, '{}', $6)`, [id, webhookId, randomUUID(), status, durations.length, new Date(at)]);
    for (const [i, ms] of durations.entries()) {
      await db.query('INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status, error) VALUES ($1, $2, $3, $4, $5, $6)',
        [id, i + 1, new Date(at + i * 1000), ms, errors[i] ? null : 200, errors[i] ?? null]);
    }
    return id;
  };

  beforeAll(async () => {
    url = testDatabaseUrl('delivery_stats');
    db = await openDispatcherDatabase(url, 4);
    now = new Date();
    thisHour = Math.floor(now.getTime() / HOUR) * HOUR;
    stats = new DeliveryStats(new DeliveryLogRepository(db), () => now);
    const threeHoursAgo = thisHour - 3 * HOUR;
    const anHourAgo = thisHour - HOUR;
    // Three hours ago: one of each, a cancelled one (not counted, nor its attempt's latency).
    await delivery(WEBHOOK, threeHoursAgo + 60_000, 'delivered', [10]);
    await delivery(WEBHOOK, threeHoursAgo + 120_000, 'delivered', [100, 200, 30]);
    await delivery(WEBHOOK, threeHoursAgo + 180_000, 'retrying', [50]);
    await delivery(WEBHOOK, threeHoursAgo + 240_000, 'failed', [1000, 1000, 1000]);
    await delivery(WEBHOOK, threeHoursAgo + 300_000, 'cancelled', [99_999]);
    await delivery(WEBHOOK, threeHoursAgo + 360_000, 'pending', []);
    // An hour ago: one delivered, one failed unsent (its webhook disabled: no request, no latency).
    await delivery(WEBHOOK, anHourAgo + 60_000, 'delivered', [20]);
    await delivery(WEBHOOK, anHourAgo + 120_000, 'failed', [0], [WEBHOOK_DISABLED]);
    // 30 hours ago: outside the last 24 hours, inside the last 2 days.
    await delivery(WEBHOOK, thisHour - 30 * HOUR, 'delivered', [7]);
    // Another webhook's, in the same hours: never counted.
    for (let i = 0; i < 5; i++) await delivery(OTHER, threeHoursAgo + i * 1000, 'failed', [5000]);
  });

  afterAll(async () => {
    await db?.destroy().catch(() => undefined);
    await dropTestDatabase(url);
  });

  it('counts the last 24 hours per hour: delivered at once, retried, failed, pending; cancelled and other webhooks left out', async () => {
    const { stats: s } = await stats.execute({ webhookId: WEBHOOK, since: new Date(now.getTime() - 24 * HOUR).toISOString(), bucket: 'hour' });
    expect(s.buckets).toHaveLength(25);
    expect(s.since).toBe(new Date(thisHour - 24 * HOUR).toISOString());
    expect(s.until).toBe(now.toISOString());
    const byStart = new Map(s.buckets.map((b) => [b.start, b]));
    // percentile_cont of 10, 30, 50, 100, 200, 1000, 1000, 1000: the median between 100 and 200.
    expect(byStart.get(new Date(thisHour - 3 * HOUR).toISOString())).toEqual({
      start: new Date(thisHour - 3 * HOUR).toISOString(), delivered: 1, retried: 2, failed: 1, pending: 1, p50Ms: 150, p99Ms: 1000,
    });
    expect(byStart.get(new Date(thisHour - HOUR).toISOString())).toEqual({
      start: new Date(thisHour - HOUR).toISOString(), delivered: 1, retried: 0, failed: 1, pending: 0, p50Ms: 20, p99Ms: 20,
    });
    const empty = s.buckets.filter((b) => b.start !== new Date(thisHour - 3 * HOUR).toISOString() && b.start !== new Date(thisHour - HOUR).toISOString());
    expect(empty).toHaveLength(23);
    for (const b of empty) expect(b).toEqual({ start: b.start, delivered: 0, retried: 0, failed: 0, pending: 0, p50Ms: null, p99Ms: null });
    expect(s.totals).toEqual({ delivered: 2, retried: 2, failed: 2, pending: 1 });
    // Of 10, 20, 30, 50, 100, 200, 1000, 1000, 1000.
    expect(s.latency).toEqual({ p50Ms: 100, p99Ms: 1000 });
  });

  it('counts per UTC day, from since floored to its day', async () => {
    const since = new Date(now.getTime() - 48 * HOUR);
    const { stats: s } = await stats.execute({ webhookId: WEBHOOK, since: since.toISOString(), bucket: 'day' });
    const firstDay = Math.floor(since.getTime() / (24 * HOUR)) * 24 * HOUR;
    expect(s.since).toBe(new Date(firstDay).toISOString());
    expect(s.buckets.map((b) => b.start)).toEqual([0, 1, 2].map((d) => new Date(firstDay + d * 24 * HOUR).toISOString()));
    expect(s.totals).toEqual({ delivered: 3, retried: 2, failed: 2, pending: 1 });
    const dayOf = (t: number) => new Date(Math.floor(t / (24 * HOUR)) * 24 * HOUR).toISOString();
    expect(s.buckets.find((b) => b.start === dayOf(thisHour - 30 * HOUR))!.delivered).toBeGreaterThanOrEqual(1);
  });

  it('answers every bucket as zeros, with no latency, for a webhook with no delivery', async () => {
    const { stats: s } = await stats.execute({ webhookId: 999_999, since: new Date(now.getTime() - 6 * HOUR).toISOString(), bucket: 'hour' });
    expect(s.buckets).toHaveLength(7);
    expect(s.totals).toEqual({ delivered: 0, retried: 0, failed: 0, pending: 0 });
    expect(s.latency).toEqual({ p50Ms: null, p99Ms: null });
  });

  it('reads the window of that webhook by index alone on a log of other webhooks and older days, also as a generic plan', async () => {
    // 100,000 deliveries: 90,000 of 1,000 other webhooks over 30 days, 10,000 of this one's older than the window, each with an attempt.
    await db.query(`
      INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, envelope, created_at)
      SELECT md5('stats-' || g)::uuid, CASE WHEN g % 10 = 0 THEN $1 ELSE 100000 + g % 1000 END, 'room_message', 'bulk-' || g, 1, 'delivered', 1, '{}',
             CASE WHEN g % 10 = 0 THEN now() - interval '8 days' - g * interval '1 second' ELSE now() - (g % 2592000) * interval '1 second' END
        FROM generate_series(1, 100000) AS g`, [WEBHOOK]);
    await db.query(`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status)
      SELECT id, 1, created_at, 12, 204 FROM webhook_deliveries WHERE event_id LIKE 'bulk-%'`);
    await db.query('ANALYZE webhook_deliveries');
    await db.query('ANALYZE webhook_attempts');
    const args = [WEBHOOK, new Date(thisHour - 24 * HOUR).toISOString(), now.toISOString(), 'hour', WEBHOOK_DISABLED];
    const runner = db.createQueryRunner();
    try {
      await runner.query('BEGIN');
      const plans: string[] = [];
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await runner.query(`SET LOCAL plan_cache_mode = ${mode}`);
        await runner.query(`PREPARE stats_probe_${mode} AS ${DELIVERY_STATS_SQL}`);
        // EXECUTE takes its arguments as literals (the extended protocol's parameters are not passed on to it).
        const literals = args.map((a) => (typeof a === 'number' ? String(a) : `'${String(a).replace(/'/g, "''")}'`)).join(', ');
        const [row] = await runner.query(`EXPLAIN (FORMAT JSON) EXECUTE stats_probe_${mode}(${literals})`);
        plans.push(JSON.stringify(row['QUERY PLAN']));
      }
      for (const plan of plans) {
        expect(plan).toContain('"Index Name":"webhook_deliveries_log_idx"');
        expect(plan).toContain('"Index Name":"webhook_attempts_pkey"');
        expect(plan).not.toContain('"Node Type":"Seq Scan"');
      }
    } finally {
      await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
    // The answer is the same: none of those rows is in this webhook's window.
    const { stats: s } = await stats.execute({ webhookId: WEBHOOK, since: new Date(now.getTime() - 24 * HOUR).toISOString(), bucket: 'hour' });
    expect(s.totals).toEqual({ delivered: 2, retried: 2, failed: 2, pending: 1 });
  });
});

import { preparedQuery } from '@app/common';
import { DataSource } from 'typeorm';
import type { DeliveryPosition, DeliveryStatsBucket, DeliveryStatusName } from '@app/contracts';
import type { RepeatedRequest } from '../delivery/attempt-rows';
import { WEBHOOK_DISABLED } from '../delivery/disabled-webhook';
import type { StatsRow } from './delivery-stats';

/** A delivery as the log reads it, with its latest attempt (null columns before the first). */
export interface DeliveryRow {
  id: string;
  webhook_id: number;
  event: string;
  status: DeliveryStatusName;
  created_at: Date;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt: number | null;
  last_at: Date | null;
  last_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** Further requests of that attempt (made twice after a crash), as `webhook_attempts.repeats` holds them; null nearly always. */
  last_repeats: RepeatedRequest[] | null;
}

/** What a delivery is sent again from: its record alone. */
export interface JobRow {
  id: string;
  webhook_id: number;
  event: string;
  event_id: string;
  room_id: number | null;
  envelope: string;
  created_at: Date;
  attempts: number;
  actor_user_id: number | null;
  reply_depth: number;
  /** The trace its attempts belong to (see DeliveryJob.traceparent); null for rows from before it was kept. */
  traceparent: string | null;
  /** The attempts it had when a recover started its retry schedule again (DeliveryJob.scheduleOffset); null: never recovered. */
  schedule_offset: number | null;
  /**
   * Its event's registrations' version (DeliveryJob.registrationsVersion; bigint, read as a
   * string); null for an unstamped event and for rows from before it was kept.
   */
  registrations_version: string | null;
  /** A bridge's delivery: the posts its platform accepted (DeliveryJob.partsDone); null: none, or not a bridge. */
  parts_done?: number | null;
}

export interface DetailRow extends JobRow, DeliveryRow {
  /** Whether it is an ordered delivery (it has a place in its lane). */
  ordered: boolean;
  reply_message_id: string | null;
  reply_error: string | null;
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response_excerpt: string | null;
  response_headers: Record<string, string> | null;
}

/** A row of a list: with its position, `created_at` to the microsecond (the Date has milliseconds). */
export interface ListedRow extends DeliveryRow {
  position_at: string;
}

export interface DeliveryFilter {
  webhookId: number;
  status?: DeliveryStatusName;
  event?: string;
  since?: string;
  /** Skipped when `after` is given. */
  startIndex: number;
  /** The page starts after this delivery (keyset), not at `startIndex`. */
  after?: DeliveryPosition;
  limit: number;
}

/** A delivery a recover took from `failed`: what it had when taken. */
export interface ClaimedDelivery {
  id: string;
  created_at: Date;
  attempts: number;
}

/**
 * The delivery's columns and its latest attempt's (the attempt numbered `attempts`: one
 * primary-key probe), with that attempt's further requests, if any: which of them the log
 * shows is lastRequestOf's choice (a per-row subquery here would cost every page for a rare case).
 */
const WITH_LAST_ATTEMPT = `
  d.id, d.webhook_id, d.event, d.status, d.created_at, d.attempts, d.next_attempt_at,
  a.attempt AS last_attempt, a.started_at AS last_at, a.status AS last_status, a.duration_ms AS last_duration_ms, a.error AS last_error,
  a.repeats AS last_repeats`;

/** What a job is rebuilt from (jobOf): every read of rows to send again takes these, so none lacks one. */
export const JOB_COLUMNS = 'id, webhook_id, event, event_id, room_id, envelope, created_at, attempts, actor_user_id, reply_depth, traceparent, schedule_offset, '
  + 'registrations_version, parts_done';

/** See DeliveryLogRepository.stats. `date_trunc` of the UTC wall time: buckets are UTC hours and days, whatever the server's zone. */
export const DELIVERY_STATS_SQL = `
  WITH d AS MATERIALIZED (
    SELECT id, status, attempts, date_trunc($4, created_at AT TIME ZONE 'UTC') AS b
      FROM webhook_deliveries
     WHERE webhook_id = $1 AND created_at >= $2::timestamptz AND created_at <= $3::timestamptz AND status <> 'cancelled'
  ), c AS (
    SELECT b,
           count(*) FILTER (WHERE status = 'delivered' AND attempts <= 1)::int AS delivered,
           count(*) FILTER (WHERE (status = 'delivered' AND attempts > 1) OR status = 'retrying')::int AS retried,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'pending')::int AS pending
      FROM d GROUP BY b
  ), l AS (
    SELECT d.b,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY a.duration_ms) AS p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY a.duration_ms) AS p99
      FROM d CROSS JOIN LATERAL (
             -- OFFSET 0 keeps this a subquery run per delivery (its primary key's range), not a
             -- join the planner may make a hash of every attempt in the log: it did so as soon as
             -- the log grew (its estimate of the window's rows is the whole table's spread).
             SELECT duration_ms FROM webhook_attempts WHERE delivery_id = d.id AND error IS DISTINCT FROM $5 OFFSET 0
           ) a
     GROUP BY GROUPING SETS ((d.b), ())
  )
  SELECT coalesce(c.b, l.b) AT TIME ZONE 'UTC' AS start,
         coalesce(c.delivered, 0) AS delivered, coalesce(c.retried, 0) AS retried,
         coalesce(c.failed, 0) AS failed, coalesce(c.pending, 0) AS pending,
         l.p50, l.p99
    FROM c FULL JOIN l ON l.b = c.b`;

/**
 * The delivery log's SQL over the dispatcher's tables. Pages are read newest first by
 * (created_at, id) in the order of the indexes (webhook_id, created_at DESC, id DESC),
 * (webhook_id, status, ...) and (webhook_id, event, ...): see docs/decisions.md.
 */
export class DeliveryLogRepository {
  constructor(private readonly db: DataSource) {}

  async list(f: DeliveryFilter): Promise<ListedRow[]> {
    const params: unknown[] = [f.webhookId];
    const where = ['d.webhook_id = $1'];
    if (f.status !== undefined) where.push(`d.status = $${params.push(f.status)}`);
    if (f.event !== undefined) where.push(`d.event = $${params.push(f.event)}`);
    if (f.since !== undefined) where.push(`d.created_at >= $${params.push(f.since)}::timestamptz`);
    // After a position, the page is a range of the index from it: nothing read to be skipped,
    // and deliveries created meanwhile (at the top) move nothing. The row comparison is one
    // index condition on (created_at DESC, id DESC), both columns in the index's order.
    let cut: string;
    if (f.after !== undefined) {
      where.push(`(d.created_at, d.id) < ($${params.push(f.after.createdAt)}::timestamptz, $${params.push(f.after.id)}::uuid)`);
      cut = `LIMIT $${params.push(f.limit)}`;
    } else {
      const offset = params.push(f.startIndex);
      cut = `OFFSET $${offset} LIMIT $${params.push(f.limit)}`;
    }
    // The page is cut first, by ids alone: the log's indexes hold every column it filters and
    // orders by, so a deep page reads index entries only (no row, no attempt) for what it skips;
    // then its rows are joined to their last attempts. Prepared (one text per set of filters):
    // each filter has an index led by (webhook_id, the filter) and ordered as the page is, so
    // the generic plan is the index scan whatever the webhook holds (checked with
    // force_generic_plan on a webhook of 50,000 deliveries and one of 1,000, each filter and
    // deep offsets), and planning was a third of the statement's cost. The position is written
    // by PostgreSQL, in UTC to the microsecond: pg's Date would cut it to the millisecond, and
    // a page after a position so cut would repeat or skip deliveries of the same millisecond.
    return preparedQuery(this.db,
      `SELECT ${WITH_LAST_ATTEMPT},
              to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
         FROM (SELECT d.id FROM webhook_deliveries d
                WHERE ${where.join(' AND ')}
                ORDER BY d.created_at DESC, d.id DESC
               ${cut}) page
         JOIN webhook_deliveries d ON d.id = page.id
         LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = d.attempts
        ORDER BY d.created_at DESC, d.id DESC`,
      params,
    );
  }

  /**
   * A webhook's deliveries created from `from` to `until`, counted per bucket (a UTC hour or
   * day) by what became of them: `delivered` at the first attempt; `retried`, delivered after
   * more than one, or retrying now; `failed`; `pending`, not yet attempted; `cancelled` ones
   * (their webhook was gone) not at all. With the p50 and p99 of their attempts' durations
   * per bucket, and of the whole window in the row whose `start` is null (GROUPING SETS: one
   * read of the attempts). Attempts not sent (the webhook was disabled) are no latency.
   *
   * The window is a range of webhook_deliveries_log_idx, (webhook_id, created_at DESC, ...):
   * its rows of that webhook only, whatever the log holds of other webhooks or older days;
   * each one's attempts by webhook_attempts' primary key (delivery_id, attempt), delivery by
   * delivery. test/delivery-stats.int-spec.ts checks the plan (custom and generic) on a log of
   * 100,000 other rows: these two index scans and no sequential scan, so no index was added.
   */
  async stats(webhookId: number, from: Date, until: Date, bucket: DeliveryStatsBucket): Promise<StatsRow[]> {
    return preparedQuery(this.db, DELIVERY_STATS_SQL, [webhookId, from.toISOString(), until.toISOString(), bucket, WEBHOOK_DISABLED]);
  }

  /** One delivery with what sending it again needs, and its reply; undefined when unknown. */
  async find(id: string): Promise<DetailRow | undefined> {
    const rows: DetailRow[] = await preparedQuery(this.db,
      `SELECT ${WITH_LAST_ATTEMPT}, d.event_id, d.room_id, d.envelope, d.actor_user_id, d.reply_depth, d.traceparent, d.schedule_offset, d.registrations_version, d.lane_position IS NOT NULL AS ordered, d.reply_message_id, d.reply_error
         FROM webhook_deliveries d
         LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = d.attempts
        WHERE d.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Every request made of the delivery: each attempt's, and any further ones of an attempt made twice (its `repeats`). */
  async attempts(id: string): Promise<AttemptRow[]> {
    return preparedQuery(this.db,
      `SELECT attempt, started_at, duration_ms, status, error, response_excerpt, response_headers
         FROM webhook_attempts WHERE delivery_id = $1
       UNION ALL
       SELECT w.attempt, (r->>'started_at')::timestamptz, (r->>'duration_ms')::int, (r->>'status')::int, r->>'error', r->>'response_excerpt',
              CASE WHEN jsonb_typeof(r->'response_headers') = 'object' THEN r->'response_headers' END
         FROM webhook_attempts w, jsonb_array_elements(w.repeats) r
        WHERE w.delivery_id = $1 AND w.repeats IS NOT NULL
       ORDER BY attempt, started_at`,
      [id],
    );
  }

  /**
   * Takes every failed delivery of the webhook created since `since` out of `failed`, in one
   * statement (row locks: two recovers at once never take the same delivery). `retrying`, due now,
   * its retry schedule starting again after the attempts it had (kept for a redeliver's job).
   */
  async claimFailed(webhookId: number, since: string): Promise<ClaimedDelivery[]> {
    const result: unknown = await this.db.query(
      `UPDATE webhook_deliveries SET status = 'retrying', next_attempt_at = now(), parked_until = NULL, schedule_offset = attempts, updated_at = now()
        WHERE webhook_id = $1 AND status = 'failed' AND created_at >= $2::timestamptz
        RETURNING id, created_at, attempts`,
      [webhookId, since],
    );
    return rowsOf<ClaimedDelivery>(result);
  }

  /** What sending these deliveries again needs. */
  async jobRows(ids: readonly string[]): Promise<JobRow[]> {
    return this.db.query(`SELECT ${JOB_COLUMNS} FROM webhook_deliveries WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Puts claimed deliveries whose jobs were not queued back to `failed` (unless an attempt moved them on). */
  async unclaim(claimed: readonly ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return;
    await this.db.query(
      `UPDATE webhook_deliveries d SET status = 'failed', next_attempt_at = NULL, parked_until = NULL, updated_at = now()
         FROM unnest($1::uuid[], $2::int[]) AS c (id, attempts)
        WHERE d.id = c.id AND d.status = 'retrying' AND d.attempts = c.attempts`,
      [claimed.map((c) => c.id), claimed.map((c) => c.attempts)],
    );
  }
}

/** TypeORM answers an UPDATE ... RETURNING as [rows, count]. */
function rowsOf<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

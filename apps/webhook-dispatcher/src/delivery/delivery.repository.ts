import { preparedQuery } from '@app/common';
import { DataSource } from 'typeorm';
import { AttemptRecord, DeliveryState } from './delivery-decisions';
import { attemptRows } from './attempt-rows';
import { DeliveryJob } from './delivery-job';
import { JOB_COLUMNS, type JobRow } from '../delivery-log/delivery-log.repository';

/** A delivery's recorded state: what a job that may be stale is checked against. */
export interface DeliveryProgress {
  status: string;
  attempts: number;
}

export interface AttemptToRecord {
  job: DeliveryJob;
  record: AttemptRecord;
  state: DeliveryState;
}

/**
 * A 2xx's record, which the recorder writes without waiting out its linger: a replica that
 * dies before it is written leaves the delivery to be sent again, and a receiver (a person,
 * for a bridge) sees it twice. A failure's record may wait: the attempt made again is a retry.
 */
export const isDeliveredAttempt = (item: AttemptToRecord): boolean => item.state.status === 'delivered';

/**
 * `repeats` of an attempt row written again: what it held, then the incoming request and its
 * own repeats, less the row's request and any already held (by start: the same request twice
 * counts once).
 */
const APPENDED_REPEATS = `COALESCE(w.repeats, '[]'::jsonb) || COALESCE((
  SELECT jsonb_agg(r ORDER BY (r->>'started_at')::timestamptz)
    FROM jsonb_array_elements(
           jsonb_build_array(jsonb_build_object('started_at', EXCLUDED.started_at, 'duration_ms', EXCLUDED.duration_ms, 'status', EXCLUDED.status,
             'error', EXCLUDED.error, 'response_excerpt', EXCLUDED.response_excerpt, 'response_headers', EXCLUDED.response_headers))
           || COALESCE(EXCLUDED.repeats, '[]'::jsonb)) r
   WHERE (r->>'started_at')::timestamptz <> w.started_at
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(w.repeats, '[]'::jsonb)) held
                      WHERE (held->>'started_at')::timestamptz = (r->>'started_at')::timestamptz)), '[]'::jsonb)`;

/** The SQL of `webhook_deliveries` and `webhook_attempts` (the dispatcher's own tables). */
export class DeliveryRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Deliveries not yet ended, of every replica (the metrics' gauges): read from the partial
   * index of those rows (webhook_deliveries_unfinished_idx), whatever the size of the log.
   */
  async countUnfinished(): Promise<{ pending: number; retrying: number }> {
    const rows = await preparedQuery(this.db, 
      `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'retrying') GROUP BY status`,
    ) as Array<{ status: 'pending' | 'retrying'; n: number }>;
    const counts = { pending: 0, retrying: 0 };
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  /**
   * One `pending` row per job (one statement for all of an event's jobs); a job already
   * recorded (a redelivered event) is left as it is. Returns the ids it inserted. The row keeps
   * the event's stamp: a job rebuilt from it before its first attempt still goes to the
   * webhook as it was then (see jobOf).
   */
  async insertPending(jobs: readonly DeliveryJob[]): Promise<Set<string>> {
    if (jobs.length === 0) return new Set();
    const rows: Array<{ id: string }> = await preparedQuery(this.db, 
      `INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, envelope, created_at, actor_user_id, reply_depth, lane_position,
                                      traceparent, registrations_version)
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::varchar[], $4::varchar[], $5::int[], $6::text[], $7::timestamptz[], $8::int[], $9::int[],
                            $10::bigint[], $11::varchar[], $12::bigint[])
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [
        jobs.map((j) => j.deliveryId), jobs.map((j) => j.webhookId), jobs.map((j) => j.event), jobs.map((j) => j.eventId),
        jobs.map((j) => j.roomId), jobs.map((j) => j.envelopeBody), jobs.map((j) => j.createdAt),
        jobs.map((j) => j.actorUserId), jobs.map((j) => j.replyDepth), jobs.map((j) => j.lanePosition ?? null),
        jobs.map((j) => j.traceparent ?? null), jobs.map((j) => j.registrationsVersion),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Which of these deliveries no attempt has been made for yet. */
  async notYetAttempted(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ id: string }> = await preparedQuery(this.db, 
      `SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND status = 'pending' AND attempts = 0`, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Attempts and their deliveries' new states, in one statement for many. A delivery row is
   * created if missing (its insert failed while the database was down), a delivery once
   * delivered stays so (a duplicated job may fail after another succeeded), and an attempt
   * recorded after a later one (two chains of a delivery, after a crash or a broker outage)
   * leaves the later one's state, `retrying` over a later attempt would leave no job to make,
   * unless it was the 2xx: delivered by any attempt is delivered. Every request is kept: an
   * attempt made twice (its row already written, or twice in this batch) keeps the first
   * request in its row and the others in `repeats`.
   */
  async recordAttempts(items: readonly AttemptToRecord[]): Promise<void> {
    if (items.length === 0) return;
    // One row per delivery (an upsert may not touch a row twice): its latest attempt, or the one
    // that delivered it (two chains' attempts may be written together), with the highest count.
    const latest = new Map<string, AttemptToRecord>();
    const delivered = (i: AttemptToRecord) => i.state.status === 'delivered';
    for (const item of items) {
      const seen = latest.get(item.job.deliveryId);
      if (!seen) {
        latest.set(item.job.deliveryId, item);
        continue;
      }
      const kept = delivered(seen) !== delivered(item) ? (delivered(item) ? item : seen) : seen.state.attempts <= item.state.attempts ? item : seen;
      latest.set(item.job.deliveryId, { ...kept, state: { ...kept.state, attempts: Math.max(seen.state.attempts, item.state.attempts) } });
    }
    // In id order: two writes at once (see the recorder's concurrency) lock their rows in one order.
    const d = [...latest.values()].sort((a, b) => (a.job.deliveryId < b.job.deliveryId ? -1 : 1));
    // One row per attempt (the same attempt made twice after a crash: its further requests as repeats).
    // In key order too: a row written again is locked (its repeats appended).
    const a = attemptRows(items.map((i) => i.record))
      .sort((x, y) => (x.record.deliveryId !== y.record.deliveryId ? (x.record.deliveryId < y.record.deliveryId ? -1 : 1) : x.record.attempt - y.record.attempt));
    await preparedQuery(this.db, 
      `WITH delivery AS (
         INSERT INTO webhook_deliveries AS d
           (id, webhook_id, event, event_id, room_id, envelope, created_at, status, attempts, last_status, last_error, next_attempt_at,
            actor_user_id, reply_depth, traceparent, parked_until, registrations_version, parts_done)
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::varchar[], $4::varchar[], $5::int[], $6::text[], $7::timestamptz[],
                              $8::varchar[], $9::int[], $10::int[], $11::text[], $12::timestamptz[], $20::int[], $21::int[], $23::varchar[],
                              $25::timestamptz[], $26::bigint[], $27::int[])
         ON CONFLICT (id) DO UPDATE SET
           status = CASE WHEN d.status = 'delivered' THEN d.status
                         WHEN EXCLUDED.attempts >= d.attempts OR EXCLUDED.status = 'delivered' THEN EXCLUDED.status
                         ELSE d.status END,
           attempts = GREATEST(d.attempts, EXCLUDED.attempts),
           last_status = CASE WHEN EXCLUDED.attempts >= d.attempts OR (EXCLUDED.status = 'delivered' AND d.status <> 'delivered')
                              THEN EXCLUDED.last_status ELSE d.last_status END,
           last_error = CASE WHEN EXCLUDED.attempts >= d.attempts OR (EXCLUDED.status = 'delivered' AND d.status <> 'delivered')
                             THEN EXCLUDED.last_error ELSE d.last_error END,
           next_attempt_at = CASE WHEN EXCLUDED.attempts >= d.attempts OR (EXCLUDED.status = 'delivered' AND d.status <> 'delivered')
                                  THEN EXCLUDED.next_attempt_at ELSE d.next_attempt_at END,
           parked_until = CASE WHEN EXCLUDED.attempts >= d.attempts OR (EXCLUDED.status = 'delivered' AND d.status <> 'delivered')
                               THEN EXCLUDED.parked_until ELSE d.parked_until END,
           -- Posts accepted stay accepted, whichever chain's record comes last.
           parts_done = CASE WHEN EXCLUDED.parts_done IS NULL THEN d.parts_done ELSE GREATEST(COALESCE(d.parts_done, 0), EXCLUDED.parts_done) END,
           updated_at = now()
         RETURNING id
       )
       INSERT INTO webhook_attempts AS w (delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt, response_headers, repeats)
       SELECT a.* FROM unnest($13::uuid[], $14::int[], $15::timestamptz[], $16::int[], $17::int[], $18::text[], $19::text[], $22::jsonb[], $24::jsonb[])
         AS a (delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt, response_headers, repeats)
       WHERE a.delivery_id IN (SELECT id FROM delivery)
       ON CONFLICT (delivery_id, attempt) DO UPDATE SET repeats = ${APPENDED_REPEATS}
         WHERE w.started_at <> EXCLUDED.started_at OR EXCLUDED.repeats IS NOT NULL`,
      [
        d.map((i) => i.job.deliveryId), d.map((i) => i.job.webhookId), d.map((i) => i.job.event), d.map((i) => i.job.eventId),
        d.map((i) => i.job.roomId), d.map((i) => i.job.envelopeBody), d.map((i) => i.job.createdAt),
        d.map((i) => i.state.status), d.map((i) => i.state.attempts), d.map((i) => i.state.lastStatus), d.map((i) => i.state.lastError),
        d.map((i) => i.state.nextAttemptAt),
        a.map((r) => r.record.deliveryId), a.map((r) => r.record.attempt), a.map((r) => r.record.startedAt),
        a.map((r) => r.record.durationMs), a.map((r) => r.record.status), a.map((r) => r.record.error),
        a.map((r) => r.record.responseExcerpt),
        d.map((i) => i.job.actorUserId), d.map((i) => i.job.replyDepth),
        a.map((r) => (r.record.responseHeaders ? JSON.stringify(r.record.responseHeaders) : null)),
        d.map((i) => i.job.traceparent ?? null),
        a.map((r) => (r.repeats ? JSON.stringify(r.repeats) : null)),
        d.map((i) => i.state.parkedUntil), d.map((i) => i.job.registrationsVersion),
        d.map((i) => i.job.partsDone ?? null),
      ],
    );
    // A redelivery's outcome is the delivery's status even over `delivered` (which the upsert keeps
    // against duplicated jobs), while it is still the latest attempt. Redeliveries are rare: no cost otherwise.
    const redelivered = d.filter((i) => i.job.redelivery);
    if (redelivered.length > 0) {
      await preparedQuery(this.db, 
        `UPDATE webhook_deliveries d SET status = u.status, updated_at = now()
           FROM unnest($1::uuid[], $2::varchar[], $3::int[]) AS u (id, status, attempt)
          WHERE d.id = u.id AND d.attempts = u.attempt`,
        [redelivered.map((i) => i.job.deliveryId), redelivered.map((i) => i.state.status), redelivered.map((i) => i.state.attempts)],
      );
    }
  }

  /** How far each of these deliveries has got, as recorded (absent: no row). */
  async progressOf(ids: readonly string[]): Promise<Map<string, DeliveryProgress>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; status: string; attempts: number }> = await preparedQuery(this.db, 
      'SELECT id, status, attempts FROM webhook_deliveries WHERE id = ANY($1::uuid[])', [ids]);
    return new Map(rows.map((r) => [r.id, { status: r.status, attempts: r.attempts }]));
  }

  /**
   * The ordered deliveries not yet ended, in lane order (see OrderedLanes), with when each
   * is due: what a replica that takes the ordered deliveries over rebuilds its lanes from.
   */
  async openLaneDeliveries(): Promise<Array<JobRow & { lane_position: string; next_attempt_at: Date | null }>> {
    return preparedQuery(this.db, 
      `SELECT ${JOB_COLUMNS}, lane_position, next_attempt_at
         FROM webhook_deliveries
        WHERE lane_position IS NOT NULL AND status IN ('pending', 'retrying')
        ORDER BY lane_position, id`);
  }

  /** The registration is gone: nothing is sent any more. */
  async markCancelled(job: DeliveryJob): Promise<void> {
    await preparedQuery(this.db, 
      `INSERT INTO webhook_deliveries AS d (id, webhook_id, event, event_id, room_id, envelope, created_at, status, actor_user_id, reply_depth,
                                           registrations_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'cancelled', $8, $9, $10)
       ON CONFLICT (id) DO UPDATE SET
         status = CASE WHEN d.status = 'delivered' THEN d.status ELSE 'cancelled' END,
         next_attempt_at = NULL,
         parked_until = NULL,
         updated_at = now()`,
      [job.deliveryId, job.webhookId, job.event, job.eventId, job.roomId, job.envelopeBody, job.createdAt, job.actorUserId, job.replyDepth,
        job.registrationsVersion],
    );
  }

  /** What became of the receiver's reply: the notification posted, or why not. */
  async recordReply(deliveryId: string, r: { messageId: string } | { error: string }): Promise<void> {
    await preparedQuery(this.db, 
      'UPDATE webhook_deliveries SET reply_message_id = $2, reply_error = $3, updated_at = now() WHERE id = $1',
      [deliveryId, 'messageId' in r ? r.messageId : null, 'error' in r ? r.error.slice(0, 1000) : null],
    );
  }
}

import type { AppLogger } from '@app/common';
import { DataSource, QueryRunner } from 'typeorm';
import { LockedSchedule } from '../delivery/locked-schedule';
import { DeliveryQueues } from '../delivery/delivery-queues';
import type { JobRow } from './delivery-log.repository';
import { recoveryJob } from './resend-jobs';

/** The advisory lock that lets one replica at a time sweep (a fixed key of the dispatcher's own). */
const SWEEP_LOCK_KEY = 7_411_906;

export interface StalledRetriesOptions {
  /**
   * A retry this long past the time its parked job is back at the latest (`parked_until`: its
   * delay queue's tier after it was parked; `next_attempt_at` for rows without one) has no job
   * left to make it: the job would have come back (and been recorded) long before. Well above
   * the attempt timeout and a broker outage's usual length, so that a sweep does not race a
   * job that is merely late. (Past `next_attempt_at` alone is not enough: a queue expires only
   * its head, so a retry may wait behind a longer one of its tier, up to a fifth of its wait.)
   */
  graceMs: number;
  intervalMs?: number;
  batch?: number;
}

/**
 * Deliveries left `retrying` with nothing to retry them: a recover (or a redeliver) whose
 * process died between taking the deliveries and publishing their jobs, or a retry whose
 * parked job the broker lost. Each sweep takes those whose job is overdue by more than `graceMs` (not
 * ordered ones: their lanes hold their retries, in the leader's memory and their rows), sets
 * them due now so the next sweep leaves them alone, and publishes their jobs as a recover
 * does (the attempts go on from what the delivery had, on a fresh schedule). A job that
 * turns up late after all finds its attempt recorded and is dropped (see DeliveryWorker).
 * Every replica runs it; an advisory lock lets one at a time do the work.
 */
export class StalledRetries {
  private readonly batch: number;
  private readonly schedule: LockedSchedule;

  constructor(
    db: DataSource,
    private readonly queues: Pick<DeliveryQueues, 'publishJobs'>,
    private readonly logger: AppLogger,
    private readonly options: StalledRetriesOptions,
  ) {
    this.batch = options.batch ?? 500;
    this.schedule = new LockedSchedule(db, logger, SWEEP_LOCK_KEY, 'sweep stalled webhook retries', options.intervalMs ?? 60_000,
      (runner) => this.sweep(runner));
  }

  start(firstInMs?: number): void {
    this.schedule.start(firstInMs);
  }

  stop(): Promise<void> {
    return this.schedule.stop();
  }

  /** One sweep; answers how many deliveries it queued again (0 when another replica holds the lock). */
  runOnce(): Promise<number> {
    return this.schedule.runOnce();
  }

  private async sweep(runner: QueryRunner): Promise<number> {
    let queued = 0;
    for (;;) {
      const result: unknown = await runner.query(
        `UPDATE webhook_deliveries d SET next_attempt_at = now(), parked_until = NULL, schedule_offset = d.attempts, updated_at = now()
           FROM (SELECT id FROM webhook_deliveries
                  WHERE status = 'retrying' AND lane_position IS NULL
                    AND COALESCE(parked_until, next_attempt_at) < now() - make_interval(secs => $1::double precision / 1000)
                  ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED) stalled
          WHERE d.id = stalled.id
          RETURNING d.id, d.webhook_id, d.event, d.event_id, d.room_id, d.envelope, d.created_at, d.attempts, d.actor_user_id, d.reply_depth, d.traceparent, d.schedule_offset,
                    d.registrations_version`,
        [this.options.graceMs, this.batch],
      );
      // TypeORM answers an UPDATE ... RETURNING as [rows, count].
      const rows = (Array.isArray((result as unknown[])[0]) ? (result as unknown[][])[0] : result) as JobRow[];
      if (rows.length === 0) break;
      // Not published: they are due now, so a later sweep (a grace later) takes them again.
      await this.queues.publishJobs(rows.map(recoveryJob));
      queued += rows.length;
      if (rows.length < this.batch) break;
    }
    if (queued > 0) this.logger.warn({ deliveries: queued }, 'stalled webhook retries queued again (their jobs were lost)');
    return queued;
  }
}

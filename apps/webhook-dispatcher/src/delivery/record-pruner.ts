import type { AppLogger } from '@app/common';
import { DataSource, QueryRunner } from 'typeorm';
import { LockedSchedule } from './locked-schedule';

/** The advisory lock that lets one replica at a time prune (a fixed key of the dispatcher's own). */
const PRUNE_LOCK_KEY = 7_411_904;

export interface PrunerOptions {
  /** Delivered and cancelled deliveries older than this are deleted with their attempts (WEBHOOK_RECORD_RETENTION_DAYS). */
  retentionDays: number;
  /** Failed deliveries older than this are (WEBHOOK_FAILED_RETENTION_DAYS): kept longer, to be recovered. Default: retentionDays. */
  failedRetentionDays?: number;
  /** Time between runs. */
  intervalMs?: number;
  /** Rows per DELETE: a long delete would hold locks and bloat one transaction. */
  batch?: number;
}

/**
 * Keeps the dispatcher's records from growing without end: deliveries that are finished and
 * older than their retention go, their attempts with them (ON DELETE CASCADE). Delivered and
 * cancelled ones are kept `retentionDays`; failed ones `failedRetentionDays`, longer, so that
 * an owner back from a long outage can still recover them. A delivery still pending or
 * retrying is kept whatever its age. Every replica runs it; an advisory lock lets one at a
 * time do the work.
 */
export class RecordPruner {
  private readonly batch: number;
  private readonly schedule: LockedSchedule;

  constructor(db: DataSource, private readonly logger: AppLogger, private readonly options: PrunerOptions) {
    this.batch = options.batch ?? 5_000;
    this.schedule = new LockedSchedule(db, logger, PRUNE_LOCK_KEY, 'prune old webhook deliveries', options.intervalMs ?? 60 * 60_000,
      (runner) => this.pruneAll(runner));
  }

  /** First run after `firstInMs` (spread over replicas by the caller), then every interval. */
  start(firstInMs = 60_000): void {
    this.schedule.start(firstInMs);
  }

  stop(): Promise<void> {
    return this.schedule.stop();
  }

  /** Deletes what is past the retention; answers how many deliveries (0 when another replica holds the lock). */
  runOnce(): Promise<number> {
    return this.schedule.runOnce();
  }

  private async pruneAll(runner: QueryRunner): Promise<number> {
    const failedDays = this.options.failedRetentionDays ?? this.options.retentionDays;
    // Each pass reads its candidates oldest first by an index of its own: created_at, and the partial failed one.
    const total = await this.prune(runner, `status IN ('delivered', 'cancelled')`, this.options.retentionDays)
      + await this.prune(runner, `status = 'failed'`, failedDays);
    if (total > 0) {
      this.logger.info({ deliveries: total, retentionDays: this.options.retentionDays, failedRetentionDays: failedDays }, 'old webhook deliveries pruned');
    }
    return total;
  }

  /**
   * Deletes, a batch at a time, the deliveries in `statuses` (an SQL condition of ours) older
   * than `days`. Each batch starts where the last one ended (`created_at >=` its newest): the
   * rows it walked past and kept (failed ones within their longer retention, unfinished ones)
   * are not walked again by every batch after it.
   */
  private async prune(runner: QueryRunner, statuses: string, days: number): Promise<number> {
    let total = 0;
    let from = '-infinity';
    for (;;) {
      const [{ n, last }]: Array<{ n: number; last: string | null }> = await runner.query(
        `WITH gone AS (
           DELETE FROM webhook_deliveries WHERE id IN (
             SELECT id FROM webhook_deliveries
              WHERE created_at < now() - make_interval(days => $1) AND created_at >= $3::timestamptz AND ${statuses}
              ORDER BY created_at LIMIT $2)
           RETURNING created_at)
         SELECT count(*)::int AS n, max(created_at)::text AS last FROM gone`, [days, this.batch, from]);
      total += n;
      if (n < this.batch || last === null) return total;
      from = last; // as text: exact to the microsecond, where a Date would keep milliseconds
    }
  }
}

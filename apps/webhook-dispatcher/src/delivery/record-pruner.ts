import type { AppLogger } from '@app/common';
import { DataSource, QueryRunner } from 'typeorm';

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
  private readonly intervalMs: number;
  private readonly batch: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly db: DataSource, private readonly logger: AppLogger, private readonly options: PrunerOptions) {
    this.intervalMs = options.intervalMs ?? 60 * 60_000;
    this.batch = options.batch ?? 5_000;
  }

  /** First run after `firstInMs` (spread over replicas by the caller), then every interval. */
  start(firstInMs = 60_000): void {
    const tick = (ms: number) => {
      this.timer = setTimeout(() => {
        this.running = this.runOnce().catch((err) => {
          this.logger.warn({ err: (err as Error).message }, 'could not prune old webhook deliveries');
          return 0;
        });
        void this.running.finally(() => {
          this.running = null;
          if (this.timer) tick(this.intervalMs);
        });
      }, ms);
      this.timer.unref();
    };
    tick(firstInMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running;
  }

  /** Deletes what is past the retention; answers how many deliveries (0 when another replica holds the lock). */
  async runOnce(): Promise<number> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [PRUNE_LOCK_KEY]);
      if (!locked) return 0;
      try {
        const failedDays = this.options.failedRetentionDays ?? this.options.retentionDays;
        // Each pass reads its candidates oldest first by an index of its own: created_at, and the partial failed one.
        const total = await this.prune(runner, `status IN ('delivered', 'cancelled')`, this.options.retentionDays)
          + await this.prune(runner, `status = 'failed'`, failedDays);
        if (total > 0) {
          this.logger.info({ deliveries: total, retentionDays: this.options.retentionDays, failedRetentionDays: failedDays }, 'old webhook deliveries pruned');
        }
        return total;
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [PRUNE_LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  }

  /** Deletes, a batch at a time, the deliveries in `statuses` (an SQL condition of ours) older than `days`. */
  private async prune(runner: QueryRunner, statuses: string, days: number): Promise<number> {
    let total = 0;
    for (;;) {
      const result: unknown = await runner.query(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
            WHERE created_at < now() - make_interval(days => $1) AND ${statuses}
            ORDER BY created_at LIMIT $2)
         RETURNING id`, [days, this.batch]);
      // TypeORM answers a DELETE ... RETURNING as [rows, count].
      const deleted = (Array.isArray((result as unknown[])[0]) ? (result as unknown[][])[0] : result) as unknown[];
      total += deleted.length;
      if (deleted.length < this.batch) return total;
    }
  }
}

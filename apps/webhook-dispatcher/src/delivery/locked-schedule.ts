import type { AppLogger } from '@app/common';
import { DataSource, QueryRunner } from 'typeorm';

/**
 * Upkeep that every dispatcher replica schedules and one at a time does: `work` runs every
 * `intervalMs` on a connection of its own while that connection holds the session advisory
 * lock `lockKey` (another replica holding it: the run does nothing). `work` answers how many
 * rows it handled; a failure is logged as `what` and the schedule goes on.
 */
export class LockedSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly logger: AppLogger,
    private readonly lockKey: number,
    private readonly what: string,
    private readonly intervalMs: number,
    private readonly work: (runner: QueryRunner) => Promise<number>,
  ) {}

  /** First run after `firstInMs` (spread over replicas by the caller), then every interval. */
  start(firstInMs = this.intervalMs): void {
    const tick = (ms: number) => {
      this.timer = setTimeout(() => {
        this.running = this.runOnce().catch((err) => {
          this.logger.warn({ err: (err as Error).message }, `could not ${this.what}`);
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

  /** One run now; answers what `work` did (0 when another replica holds the lock). */
  async runOnce(): Promise<number> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [this.lockKey]);
      if (!locked) return 0;
      try {
        return await this.work(runner);
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [this.lockKey]);
      }
    } finally {
      await runner.release();
    }
  }
}

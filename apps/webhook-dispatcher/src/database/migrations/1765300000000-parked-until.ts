import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a parked retry's job is back from its delay queue at the latest: parked, plus its
 * queue's tier. A queue expires only its head, so a retry may come back after its
 * `next_attempt_at`, by up to its tier less its wait (a fifth of the wait within its own
 * tier, whose waits differ by their jitter: 24 min for a 2 h retry). The sweep of stalled
 * retries reads this, not `next_attempt_at`, so that a retry merely late is not taken for
 * lost. Nullable without a default (adding it rewrites no row): rows the previous version
 * writes during a rolling update have none, and the sweep reads their `next_attempt_at`.
 */
export class ParkedUntil1765300000000 implements MigrationInterface {
  name = 'ParkedUntil1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS parked_until timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS parked_until');
  }
}

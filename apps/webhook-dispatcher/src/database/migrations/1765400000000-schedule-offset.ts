import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a delivery's retry schedule starts: the attempts it had when a recover (or the sweep
 * of stalled retries) started the schedule again. The jobs carry it (`scheduleOffset`), but a
 * redeliver builds its job from the row: without it, a redelivered attempt of a recovered
 * delivery counted from the first schedule, was past its end, and a failure ended the
 * delivery at once. Nullable without a default (adding it rewrites no row): no recover yet,
 * or one by the previous version during a rolling update, means the schedule from attempt 1.
 */
export class ScheduleOffset1765400000000 implements MigrationInterface {
  name = 'ScheduleOffset1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS schedule_offset integer');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS schedule_offset');
  }
}

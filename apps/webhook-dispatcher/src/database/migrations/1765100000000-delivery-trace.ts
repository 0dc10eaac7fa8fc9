import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C trace context of a delivery (its job's `traceparent`), kept with its row: a job
 * rebuilt from the row alone (a stalled retry queued again, an ordered lane taken over by
 * another replica) still makes its attempts in the trace of the event that caused it, as a
 * swept outbox event stays in its request's. Nullable and without a default: adding it
 * rewrites no row.
 */
export class DeliveryTrace1765100000000 implements MigrationInterface {
  name = 'DeliveryTrace1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS traceparent varchar(256)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS traceparent');
  }
}

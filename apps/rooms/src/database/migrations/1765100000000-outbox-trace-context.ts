import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `outbox.traceparent`: the W3C trace context of the command that caused the event (its
 * span), kept with the row so that the event's publishing, whenever it happens (at once, by
 * the relay's poll, after a broker outage), and everything it causes downstream (matching,
 * webhook attempts, their replies) belong to the request's trace. Null: an event of no
 * trace (the CLI's). Adding a nullable column rewrites nothing.
 */
export class OutboxTraceContext1765100000000 implements MigrationInterface {
  name = 'OutboxTraceContext1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN traceparent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox DROP COLUMN IF EXISTS traceparent');
  }
}

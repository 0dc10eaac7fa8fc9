import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery log (list, detail, redeliver, recover; see docs/decisions.md "Delivery log
 * indexes"):
 * - a webhook's deliveries newest first, all, of one status or of one event, read by index
 *   in page order (the index they replace, (webhook_id, created_at), served no query of its
 *   own);
 * - what a delivery needs to be sent again from its record alone: the acting user (the
 *   JWT's subject) and the reply depth (replies to replies stop at 3);
 * - each attempt's response headers.
 */
export class DeliveryLog1764500000000 implements MigrationInterface {
  name = 'DeliveryLog1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_deliveries
        ADD COLUMN actor_user_id integer,
        ADD COLUMN reply_depth   integer NOT NULL DEFAULT 1`);
    await q.query('ALTER TABLE webhook_attempts ADD COLUMN response_headers jsonb');
    await q.query('CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC)');
    await q.query('CREATE INDEX webhook_deliveries_log_status_idx ON webhook_deliveries (webhook_id, status, created_at DESC, id DESC)');
    await q.query('CREATE INDEX webhook_deliveries_log_event_idx ON webhook_deliveries (webhook_id, event, created_at DESC, id DESC)');
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_webhook_idx');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at)');
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_log_event_idx');
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_log_status_idx');
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_log_idx');
    await q.query('ALTER TABLE webhook_attempts DROP COLUMN IF EXISTS response_headers');
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS reply_depth, DROP COLUMN IF EXISTS actor_user_id');
  }
}

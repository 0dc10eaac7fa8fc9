import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook's delivery mode (`concurrent`, HipChat's, or `ordered`: see
 * WEBHOOK_DELIVERY_MODES): a registration setting, on `webhooks` and `webhooks_removed`
 * alike (the versioning trigger copies rows by column name), so that changing it advances
 * the registrations' version like any other change.
 */
export class WebhookDeliveryMode1764650000000 implements MigrationInterface {
  name = 'WebhookDeliveryMode1764650000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['webhooks', 'webhooks_removed']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN delivery varchar(16) NOT NULL DEFAULT 'concurrent'
        CONSTRAINT ${table}_delivery_check CHECK (delivery IN ('concurrent', 'ordered'))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhooks', 'webhooks_removed']) await q.query(`ALTER TABLE ${table} DROP COLUMN IF EXISTS delivery`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Finished deliveries are pruned oldest first (RecordPruner): by creation time, whatever the webhook. */
export class DeliveryRetention1764300000000 implements MigrationInterface {
  name = 'DeliveryRetention1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_created_idx');
  }
}

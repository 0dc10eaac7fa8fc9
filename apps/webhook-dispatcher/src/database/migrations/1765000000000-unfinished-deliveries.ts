import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The deliveries not yet ended (`pending`, `retrying`), indexed apart: the metrics count them
 * on every scrape, and without it the count would read every delivery kept (30 days of them,
 * 90 for the failed). A partial index holds only the few rows in progress; the status is
 * already in an index (webhook_deliveries_log_status_idx), so its changes were not HOT updates before either.
 */
export class UnfinishedDeliveries1765000000000 implements MigrationInterface {
  name = 'UnfinishedDeliveries1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_unfinished_idx ON webhook_deliveries (status) WHERE status IN ('pending', 'retrying')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_unfinished_idx');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many posts of a bridge's delivery its platform has accepted (DeliveryJob.partsDone: a
 * long message is split into several): a lane rebuilt by the replica taking the lead resumes
 * at the first post not yet accepted, and people do not read a part twice. Nullable without a
 * default (adding it rewrites no row): a webhook's delivery, or one written before, has none.
 */
export class PartsDone1766600000000 implements MigrationInterface {
  name = 'PartsDone1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS parts_done integer');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS parts_done');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The registrations' version of a delivery's event (its stamp, DeliveryJob.registrationsVersion).
 * Its first job carries it, but a job rebuilt from the row (an ordered lane rebuilt by the
 * replica taking the lead) had none: its first attempt went to the webhook as it is now, so a
 * room's own room_deleted and room_exit, whose webhooks the deletion removed, were cancelled.
 * Nullable without a default (adding it rewrites no row): rows written before, or by the
 * previous version during a rolling update, go to the webhook as it is now, as they did.
 */
export class RegistrationsVersion1765500000000 implements MigrationInterface {
  name = 'RegistrationsVersion1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS registrations_version bigint');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS registrations_version');
  }
}

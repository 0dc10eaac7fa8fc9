import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for a dispatcher's read of the registration changes since its index's version
 * (ListRegistrationChangesV1): the rows of `webhooks` written after it (`created_version`,
 * stamped by the trigger of RegistrationsVersion1764400000000 on every insert and update)
 * and the forms of `webhooks_removed` ended after it (`removed_version`). Without them that
 * read scans both tables, and costs at 10,000 registrations what loading them all does.
 * `webhooks` changes seldom (registration changes only), so a second index on a column
 * every update sets costs nothing that matters. The previous version reads nothing through
 * them and writes as before.
 */
export class RegistrationChanges1765200000000 implements MigrationInterface {
  name = 'RegistrationChanges1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX webhooks_created_version_idx ON webhooks (created_version)');
    await q.query('CREATE INDEX webhooks_removed_version_idx ON webhooks_removed (removed_version)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhooks_removed_version_idx');
    await q.query('DROP INDEX IF EXISTS webhooks_created_version_idx');
  }
}

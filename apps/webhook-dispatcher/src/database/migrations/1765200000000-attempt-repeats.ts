import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The further requests of an attempt made more than once, kept with its row. After a replica
 * dies, the same attempt can be made twice (the dead replica's request, whose outcome it
 * never recorded, and the survivor's; or a redelivered job's and its redone event's at once):
 * the receiver saw two requests, and the log is to show both. A column, not a wider primary
 * key: a rolling update runs this while the previous version still writes
 * `ON CONFLICT (delivery_id, attempt)`, which needs the key as it is. Nullable without a
 * default: adding it rewrites no row.
 */
export class AttemptRepeats1765200000000 implements MigrationInterface {
  name = 'AttemptRepeats1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_attempts ADD COLUMN IF NOT EXISTS repeats jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_attempts DROP COLUMN IF EXISTS repeats');
  }
}

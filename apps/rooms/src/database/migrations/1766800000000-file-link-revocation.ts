import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A room's file link revocation time: when anyone or anything may last have lost access to it
 * (a member removed, a reader deleted or demoted, the room made private, a webhook, bridge or
 * add-on removed). A private room's signed file links issued at or before it are refused, so
 * that losing access loses the links handed out before. Null: never (a new room's links stand).
 */
export class FileLinkRevocation1766800000000 implements MigrationInterface {
  name = 'FileLinkRevocation1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rooms ADD COLUMN file_links_revoked_at timestamptz NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rooms DROP COLUMN IF EXISTS file_links_revoked_at');
  }
}

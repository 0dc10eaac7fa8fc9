import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which room each stored file (and thumbnail) belongs to, by storage key: the gateway asks
 * it at every request for a file (GetFileAccessV1), so that a private room's files are
 * served to those who may read the room now, and a deleted room's to nobody. No foreign
 * key: a deleted room's rows stay, `removed_at` set in its deletion's transaction, until
 * the gateway has removed the files from the storage (ListRemovedFilesV1), so none is lost
 * track of. Filled from the files that messages already point at (`/files/<key>` URLs).
 */
export class RoomFiles1766100000000 implements MigrationInterface {
  name = 'RoomFiles1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE room_files (
        key        text        PRIMARY KEY,
        room_id    integer     NOT NULL,
        removed_at timestamptz
      )`);
    await q.query('CREATE INDEX room_files_room_idx ON room_files (room_id)');
    await q.query('CREATE INDEX room_files_removed_idx ON room_files (removed_at) WHERE removed_at IS NOT NULL');
    // The key is a URL's last three segments after `files` (keyOfFileUrl), whatever its base.
    await q.query(`
      INSERT INTO room_files (key, room_id)
      SELECT DISTINCT k.key, m.room_id
        FROM messages m,
             LATERAL (VALUES (m.file->>'url'), (m.file->>'thumb_url')) u(url),
             LATERAL (SELECT substring(u.url FROM '/files/([A-Za-z0-9_-]{2}/[A-Za-z0-9_-]+/[A-Za-z0-9_.-]+)$') AS key) k
       WHERE m.file IS NOT NULL AND k.key IS NOT NULL
      ON CONFLICT (key) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS room_files');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read state kept per person (issue 36): what each user has read of each room and of each
 * private chat, so that it follows them from one browser to another.
 * - `room_read_markers`, `private_read_markers`: the newest message read (its id and its
 *   created_at, what unread counts compare with). A marker only moves forward (the upsert's
 *   WHERE), and one row is written per PUT of a reader: no row that every message updates.
 *   Gone with their user or room (ON DELETE CASCADE).
 * - `room_members.added_at`: when membership began, so that a member who never opened the
 *   room counts what was said since. NULL for memberships older than this migration (unknown:
 *   nothing counts as unread until the room is opened).
 * - `private_messages_sender_idx`: the chats list reads a user's peers from both sides of
 *   the private messages (the other side is private_messages_pair_idx) and the newest
 *   message sent to each.
 * - `rooms_owner_idx`: the rooms a user owns, for the chats list.
 */
export class ReadMarkers1766600000000 implements MigrationInterface {
  name = 'ReadMarkers1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE room_read_markers (
        user_id            integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        room_id            integer     NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        message_id         uuid        NOT NULL,
        message_created_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, room_id)
      )`);
    await q.query('CREATE INDEX room_read_markers_room_idx ON room_read_markers (room_id)');
    await q.query(`
      CREATE TABLE private_read_markers (
        user_id            integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        other_user_id      integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        message_id         uuid        NOT NULL,
        message_created_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, other_user_id)
      )`);
    await q.query('CREATE INDEX private_read_markers_other_idx ON private_read_markers (other_user_id)');
    // Added without a default first, so that existing memberships stay unknown (NULL).
    await q.query('ALTER TABLE room_members ADD COLUMN added_at timestamptz');
    await q.query('ALTER TABLE room_members ALTER COLUMN added_at SET DEFAULT now()');
    await q.query('CREATE INDEX private_messages_sender_idx ON private_messages (from_user_id, to_user_id, created_at DESC)');
    await q.query('CREATE INDEX IF NOT EXISTS rooms_owner_idx ON rooms (owner_user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS rooms_owner_idx');
    await q.query('DROP INDEX IF EXISTS private_messages_sender_idx');
    await q.query('ALTER TABLE room_members DROP COLUMN IF EXISTS added_at');
    await q.query('DROP TABLE IF EXISTS private_read_markers');
    await q.query('DROP TABLE IF EXISTS room_read_markers');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the v2 API needs: personal, room and add-on tokens (owned by a user or a room,
 * carrying scopes), who is in a room now (participants, apart from who may enter a private
 * room: members), guests, notification cards and replies (`attach_to`), shared files and
 * extracted links on messages, and one-to-one messages.
 */
export class V2Api1764000000000 implements MigrationInterface {
  name = 'V2Api1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS api_tokens_kind_check');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_check
      CHECK (kind IN ('admin', 'notification', 'personal', 'room', 'addon'))`);
    await q.query(`ALTER TABLE api_tokens
      ADD COLUMN user_id integer REFERENCES users (id),
      ADD COLUMN room_id integer REFERENCES rooms (id) ON DELETE CASCADE,
      ADD COLUMN scopes  text[] NOT NULL DEFAULT '{}',
      ADD COLUMN expires_at timestamptz`);

    await q.query('ALTER TABLE users ADD COLUMN is_guest boolean NOT NULL DEFAULT false');

    await q.query(`
      CREATE TABLE room_participants (
        room_id    integer     NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        user_id    integer     NOT NULL REFERENCES users (id),
        entered_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (room_id, user_id)
      )`);
    await q.query('CREATE INDEX room_participants_user_idx ON room_participants (user_id)');
    await q.query('CREATE INDEX room_members_user_idx ON room_members (user_id)');

    await q.query(`ALTER TABLE messages
      ADD COLUMN card          jsonb,
      ADD COLUMN attach_to     uuid,
      ADD COLUMN file          jsonb,
      ADD COLUMN message_links jsonb`);

    await q.query(`
      CREATE TABLE private_messages (
        id            uuid        PRIMARY KEY,
        from_user_id  integer     NOT NULL REFERENCES users (id),
        to_user_id    integer     NOT NULL REFERENCES users (id),
        body          text        NOT NULL,
        message_format varchar(4) NOT NULL DEFAULT 'text',
        created_at    timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query('CREATE INDEX private_messages_pair_idx ON private_messages (to_user_id, from_user_id, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS private_messages');
    await q.query('ALTER TABLE messages DROP COLUMN IF EXISTS card, DROP COLUMN IF EXISTS attach_to, DROP COLUMN IF EXISTS file, DROP COLUMN IF EXISTS message_links');
    await q.query('DROP INDEX IF EXISTS room_members_user_idx');
    await q.query('DROP TABLE IF EXISTS room_participants');
    await q.query('ALTER TABLE users DROP COLUMN IF EXISTS is_guest');
    await q.query("DELETE FROM api_tokens WHERE kind NOT IN ('admin', 'notification')");
    await q.query('ALTER TABLE api_tokens DROP COLUMN IF EXISTS user_id, DROP COLUMN IF EXISTS room_id, DROP COLUMN IF EXISTS scopes, DROP COLUMN IF EXISTS expires_at');
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS api_tokens_kind_check');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_check CHECK (kind IN ('admin', 'notification'))`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request path without hot rows: rate windows move to Redis (gateway), a room's last
 * activity is derived from its newest message instead of an update per message, and each
 * applied command id is kept so that a redelivered command applies once.
 */
export class HotPath1763800000000 implements MigrationInterface {
  name = 'HotPath1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS api_token_rate_windows');
    await q.query('ALTER TABLE rooms DROP COLUMN IF EXISTS last_active_at');
    await q.query(`
      CREATE TABLE applied_commands (
        command_id  uuid        PRIMARY KEY,
        reply       jsonb       NOT NULL,
        applied_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX applied_commands_applied_at_idx ON applied_commands (applied_at)');
    await q.query('CREATE INDEX outbox_created_at_idx ON outbox (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS outbox_created_at_idx');
    await q.query('DROP TABLE IF EXISTS applied_commands');
    await q.query('ALTER TABLE rooms ADD COLUMN IF NOT EXISTS last_active_at timestamptz');
    await q.query(`
      CREATE TABLE IF NOT EXISTS api_token_rate_windows (
        token_id      integer     PRIMARY KEY REFERENCES api_tokens (id) ON DELETE CASCADE,
        window_start  timestamptz NOT NULL,
        request_count integer     NOT NULL
      )`);
  }
}

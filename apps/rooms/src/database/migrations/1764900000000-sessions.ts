import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Web console sessions are API tokens of kind `session` (hash stored, user, expiry), so
 * that the gateways resolve, cache and forget them as any token. The index serves what is
 * asked by user: their tokens for the tokens API, their sessions to end on a password
 * change or deletion.
 */
export class Sessions1764900000000 implements MigrationInterface {
  name = 'Sessions1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS api_tokens_kind_check');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_check
      CHECK (kind IN ('admin', 'notification', 'personal', 'room', 'addon', 'session'))`);
    await q.query('CREATE INDEX api_tokens_user_idx ON api_tokens (user_id) WHERE user_id IS NOT NULL AND revoked_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS api_tokens_user_idx');
    await q.query("DELETE FROM api_tokens WHERE kind = 'session'");
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS api_tokens_kind_check');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_check
      CHECK (kind IN ('admin', 'notification', 'personal', 'room', 'addon'))`);
  }
}

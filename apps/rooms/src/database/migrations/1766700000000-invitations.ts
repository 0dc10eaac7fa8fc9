import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations: a link a group admin gives a new person to choose their own password. Only the
 * SHA-256 of the link's secret is kept; one invitation per user (a new one replaces it), deleted
 * when used. And the audit log's filters (by actor, action, room), each read newest first by id:
 * an index per filter that ends with the id, so a page is a short index scan, not a sort.
 */
export class Invitations1766700000000 implements MigrationInterface {
  name = 'Invitations1766700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_invitations (
        user_id     integer      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        token_hash  char(64)     NOT NULL UNIQUE,
        expires_at  timestamptz  NOT NULL,
        created_at  timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX audit_log_actor_idx ON audit_log (actor_type, actor_id, id)');
    await q.query('CREATE INDEX audit_log_action_idx ON audit_log (action, id)');
    await q.query('CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, id)');
    // Lines about something in a room (a webhook, bridge, add-on) name the room in their details.
    await q.query(`CREATE INDEX audit_log_details_room_idx ON audit_log ((details->>'roomId'), id) WHERE details ? 'roomId'`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of ['audit_log_actor_idx', 'audit_log_action_idx', 'audit_log_target_idx', 'audit_log_details_room_idx']) {
      await q.query(`DROP INDEX IF EXISTS ${index}`);
    }
    await q.query('DROP TABLE IF EXISTS user_invitations');
  }
}

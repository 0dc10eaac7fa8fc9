import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: who changed access (members, owners, privacy, users' standing, tokens,
 * webhooks, add-ons, sign-in throttling). Each line is written in the transaction of the
 * change it records; names are copied, as they were then (the user or room may go). Read
 * newest first (by id); pruned by age (`created_at`, AUDIT_RETENTION_DAYS).
 */
export class AuditLog1766400000000 implements MigrationInterface {
  name = 'AuditLog1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id          bigserial    PRIMARY KEY,
        created_at  timestamptz  NOT NULL DEFAULT now(),
        actor_type  varchar(16)  NOT NULL,
        actor_id    integer,
        actor_name  varchar(254) NOT NULL,
        action      varchar(64)  NOT NULL,
        target_type varchar(16)  NOT NULL,
        target_id   integer,
        target_name varchar(254) NOT NULL,
        details     jsonb        NOT NULL DEFAULT '{}',
        address     varchar(64)
      )`);
    await q.query('CREATE INDEX audit_log_created_at_idx ON audit_log (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS audit_log');
  }
}

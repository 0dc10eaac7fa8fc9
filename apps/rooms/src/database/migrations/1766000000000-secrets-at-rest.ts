import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets at rest (issue 34): the secrets themselves are sealed by the service (SecretBox:
 * a migration has no keys), on start and by `cli secrets rotate-key`. What the schema does:
 * - a form of a webhook that was replaced or disabled (webhooks_removed, kept 7 days) keeps
 *   no secret: it signs with its webhook's, which still exists (read joined). Only the form
 *   of a deleted webhook keeps one, sealed like every other: an event caused before the
 *   deletion (a deleted room's room_deleted) is still delivered, signed, once.
 * - sealing a secret again under a new key is no registration change: the trigger leaves
 *   the registrations' version and webhooks_removed alone when only `secret` changes.
 */
export class SecretsAtRest1766000000000 implements MigrationInterface {
  name = 'SecretsAtRest1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhooks_removed ALTER COLUMN secret DROP NOT NULL');
    await q.query('UPDATE webhooks_removed r SET secret = NULL WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.id = r.id)');
    await q.query(`CREATE OR REPLACE FUNCTION webhooks_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE v bigint;
      BEGIN
        IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'secret') = (to_jsonb(OLD) - 'secret') THEN
          RETURN NEW;
        END IF;
        v := registrations_version_of_change();
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO webhooks_removed
            SELECT * FROM jsonb_populate_record(NULL::webhooks_removed,
              to_jsonb(OLD) || jsonb_build_object('removed_version', v, 'removed_at', now(),
                'secret', CASE WHEN TG_OP = 'DELETE' THEN OLD.secret END));
          DELETE FROM webhooks_removed WHERE removed_at < now() - interval '7 days';
        END IF;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        NEW.created_version := v;
        RETURN NEW;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION webhooks_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE v bigint := registrations_version_of_change();
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO webhooks_removed
            SELECT * FROM jsonb_populate_record(NULL::webhooks_removed,
              to_jsonb(OLD) || jsonb_build_object('removed_version', v, 'removed_at', now()));
          DELETE FROM webhooks_removed WHERE removed_at < now() - interval '7 days';
        END IF;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        NEW.created_version := v;
        RETURN NEW;
      END $$`);
    await q.query('UPDATE webhooks_removed r SET secret = w.secret FROM webhooks w WHERE r.secret IS NULL AND w.id = r.id');
    await q.query(`DELETE FROM webhooks_removed WHERE secret IS NULL`);
    await q.query('ALTER TABLE webhooks_removed ALTER COLUMN secret SET NOT NULL');
  }
}

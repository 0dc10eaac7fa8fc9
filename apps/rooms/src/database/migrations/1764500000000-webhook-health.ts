import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook health and disabling:
 * - `webhooks.enabled` (with why and when it was disabled): a registration setting, so
 *   disabling or enabling one advances the registrations' version like any change of
 *   `webhooks` (the trigger of RegistrationsVersion1764400000000), and is in force on every
 *   dispatcher replica when its call answers. `webhooks_removed` gets the same columns.
 * - `webhook_health`: how its deliveries go, from the dispatchers' reports. A table of its
 *   own: it changes with every report, which must not advance the registrations' version
 *   (every dispatcher would reload). `reset_at`: when it was enabled again; failures
 *   reported from before do not count.
 *
 * The trigger copied `OLD.*` into webhooks_removed by position, which new columns of
 * `webhooks` (appended after created_version, whereas webhooks_removed has removed_version
 * and removed_at there) would shift: it now copies by column name.
 */
export class WebhookHealth1764500000000 implements MigrationInterface {
  name = 'WebhookHealth1764500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['webhooks', 'webhooks_removed']) {
      await q.query(`ALTER TABLE ${table}
        ADD COLUMN enabled         boolean NOT NULL DEFAULT true,
        ADD COLUMN disabled_reason text,
        ADD COLUMN disabled_at     timestamptz`);
    }
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
    await q.query(`CREATE TABLE webhook_health (
      webhook_id           integer     PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
      last_success_at      timestamptz,
      last_failure_at      timestamptz,
      failing_since        timestamptz,
      consecutive_failures integer     NOT NULL DEFAULT 0,
      last_error           text,
      reset_at             timestamptz
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS webhook_health');
    await q.query(`CREATE OR REPLACE FUNCTION webhooks_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE v bigint := registrations_version_of_change();
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO webhooks_removed SELECT OLD.*, v, now();
          DELETE FROM webhooks_removed WHERE removed_at < now() - interval '7 days';
        END IF;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        NEW.created_version := v;
        RETURN NEW;
      END $$`);
    for (const table of ['webhooks_removed', 'webhooks']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN IF EXISTS disabled_at, DROP COLUMN IF EXISTS disabled_reason, DROP COLUMN IF EXISTS enabled`);
    }
  }
}

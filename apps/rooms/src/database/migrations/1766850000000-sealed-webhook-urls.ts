import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook and bridge URLs at rest (a security finding): a platform's incoming-webhook URL is
 * its credential, so `webhooks.url` is sealed (SecretBox, secretPurpose.webhookUrl(id)), and
 * with it the forms the trigger copies into webhooks_removed. As for the secrets
 * (SecretsAtRest1766000000000), no migration can seal (it has no key): the rooms service
 * seals the URLs kept in clear on start and on `cli secrets rotate-key`.
 *
 * The trigger: a new URL is a registration change, and the trigger cannot tell it from the
 * same URL sealed again (under a new key, or sealed for the first time). Resealing says so
 * in its transaction (`chat.resealing_urls` = 'on', SecretsRepository): a change of `url`
 * alone is then no registration change (no new version, no removed form, no dispatcher
 * reload), as a change of `secret` alone never is. Without the setting, a change of `url`
 * is one, as before.
 */
const versionedFunction = (ignored: string) => `CREATE OR REPLACE FUNCTION webhooks_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE v bigint;
  BEGIN
    IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - ${ignored}) = (to_jsonb(OLD) - ${ignored}) THEN
      RETURN NEW;
    END IF;
    v := registrations_version_of_change();
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      INSERT INTO webhooks_removed
        SELECT * FROM jsonb_populate_record(NULL::webhooks_removed,
          to_jsonb(OLD) || jsonb_build_object('removed_version', v, 'removed_at', now(),
            'secret', CASE WHEN TG_OP = 'DELETE' THEN OLD.secret END, 'inbound_token', NULL, 'inbound_hmac_secret', NULL));
      DELETE FROM webhooks_removed WHERE removed_at < now() - interval '7 days';
    END IF;
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    NEW.created_version := v;
    RETURN NEW;
  END $$`;

const BRIDGES_IGNORED = `'secret' - 'inbound_token' - 'inbound_hmac_secret'`;

export class SealedWebhookUrls1766850000000 implements MigrationInterface {
  name = 'SealedWebhookUrls1766850000000';

  async up(q: QueryRunner): Promise<void> {
    // jsonb minus '' removes nothing: without the setting, `url` counts.
    await q.query(versionedFunction(
      `${BRIDGES_IGNORED} - (CASE WHEN current_setting('chat.resealing_urls', true) = 'on' THEN 'url' ELSE '' END)`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(versionedFunction(BRIDGES_IGNORED));
  }
}

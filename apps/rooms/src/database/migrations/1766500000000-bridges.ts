import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bridges (issue 35): a bridge to a chat platform is a row of `webhooks` with `bridge_kind`
 * set, so it has a webhook's outbox versioning (the trigger copies it into webhooks_removed
 * by column name, hence the same columns there), delivery log, health, disabling,
 * lost-access rules and deletion with its room. NULL `bridge_kind`: a HipChat webhook.
 * - `bridge_events`: what it forwards (its `event` is the first of them, for the indexes
 *   and readers that know one event per row).
 * - `matrix_access_token`, `inbound_token`, `inbound_hmac_secret`: sealed (SecretBox).
 * - `inbound_key_hash`: sha256 of the inbound URL's key; the key itself is shown once and
 *   never stored, so the URL is found by its hash.
 * A bridge with a pattern forwards its other events unfiltered, so the pattern rule of
 * webhooks (room_message only) does not hold for bridges.
 *
 * The trigger: the inbound token and HMAC secret are the inbound endpoint's, which reads the
 * live row; no dispatcher uses them. Sealing them again under a new key is no registration
 * change (as `secret`), and the forms kept in webhooks_removed keep no copy of them. The
 * Matrix token is the dispatchers': a change of it (a new token, or resealed) is one.
 */
/**
 * The versioning trigger's function (SecretsAtRest1766000000000's), ignoring changes of the
 * columns `ignored` (a jsonb minus-list) and setting `kept` in the forms it keeps.
 */
const versionedFunction = (ignored: string, kept: string) => `CREATE OR REPLACE FUNCTION webhooks_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
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
            'secret', CASE WHEN TG_OP = 'DELETE' THEN OLD.secret END${kept}));
      DELETE FROM webhooks_removed WHERE removed_at < now() - interval '7 days';
    END IF;
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    NEW.created_version := v;
    RETURN NEW;
  END $$`;

export class Bridges1766500000000 implements MigrationInterface {
  name = 'Bridges1766500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['webhooks', 'webhooks_removed']) {
      await q.query(`ALTER TABLE ${table}
        ADD COLUMN bridge_kind         varchar(16),
        ADD COLUMN bridge_events       varchar(32)[],
        ADD COLUMN matrix_room_id      text,
        ADD COLUMN matrix_access_token text,
        ADD COLUMN inbound_enabled     boolean NOT NULL DEFAULT false,
        ADD COLUMN inbound_key_hash    bytea,
        ADD COLUMN inbound_token       text,
        ADD COLUMN inbound_hmac_secret text`);
    }
    await q.query(`ALTER TABLE webhooks
      ADD CONSTRAINT webhooks_bridge_kind CHECK (bridge_kind IS NULL OR bridge_kind IN
        ('slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat', 'matrix')),
      ADD CONSTRAINT webhooks_bridge_shape CHECK (bridge_kind IS NULL
        OR (cardinality(bridge_events) > 0 AND event = bridge_events[1] AND delivery = 'ordered' AND installation_id IS NULL
            AND (bridge_kind = 'matrix') = (matrix_room_id IS NOT NULL AND matrix_access_token IS NOT NULL))),
      ADD CONSTRAINT webhooks_bridge_columns_only CHECK (bridge_kind IS NOT NULL
        OR (bridge_events IS NULL AND matrix_room_id IS NULL AND matrix_access_token IS NULL AND NOT inbound_enabled
            AND inbound_key_hash IS NULL AND inbound_token IS NULL AND inbound_hmac_secret IS NULL))`);
    await q.query('ALTER TABLE webhooks DROP CONSTRAINT webhooks_pattern_message_only');
    await q.query(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_pattern_message_only
      CHECK (pattern IS NULL OR event = 'room_message' OR bridge_kind IS NOT NULL)`);
    await q.query('CREATE UNIQUE INDEX webhooks_inbound_key_uq ON webhooks (inbound_key_hash) WHERE inbound_key_hash IS NOT NULL');
    await q.query(versionedFunction(`'secret' - 'inbound_token' - 'inbound_hmac_secret'`, `, 'inbound_token', NULL, 'inbound_hmac_secret', NULL`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(versionedFunction(`'secret'`, ''));
    await q.query('DELETE FROM webhooks WHERE bridge_kind IS NOT NULL');
    await q.query('DROP INDEX IF EXISTS webhooks_inbound_key_uq');
    await q.query('ALTER TABLE webhooks DROP CONSTRAINT webhooks_pattern_message_only');
    await q.query(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_pattern_message_only CHECK (pattern IS NULL OR event = 'room_message')`);
    await q.query(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_bridge_columns_only, DROP CONSTRAINT webhooks_bridge_shape,
      DROP CONSTRAINT webhooks_bridge_kind`);
    for (const table of ['webhooks_removed', 'webhooks']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN inbound_hmac_secret, DROP COLUMN inbound_token, DROP COLUMN inbound_key_hash,
        DROP COLUMN inbound_enabled, DROP COLUMN matrix_access_token, DROP COLUMN matrix_room_id, DROP COLUMN bridge_events,
        DROP COLUMN bridge_kind`);
    }
  }
}

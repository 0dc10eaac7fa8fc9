import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Add-on installations and their OAuth clients. The client's secret is kept in clear: it
 * signs the JWTs and Standard Webhooks signatures of the add-on's deliveries. An add-on's
 * webhooks and tokens name their installation, and go with it.
 */
export class Addons1764200000000 implements MigrationInterface {
  name = 'Addons1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE addon_installations (
        id                   serial       PRIMARY KEY,
        addon_key            varchar(100) NOT NULL,
        name                 varchar(100) NOT NULL,
        descriptor_url       text         NOT NULL,
        capabilities_url     text         NOT NULL,
        callback_url         text         NOT NULL,
        room_id              integer      REFERENCES rooms (id) ON DELETE CASCADE,
        oauth_client_id      varchar(36)  NOT NULL UNIQUE,
        scopes               text[]       NOT NULL DEFAULT '{}',
        descriptor           jsonb        NOT NULL,
        installed_by_user_id integer      REFERENCES users (id) ON DELETE SET NULL,
        created_at           timestamptz  NOT NULL DEFAULT now()
      )`);
    // One installation of an add-on per room, and one group-wide.
    await q.query('CREATE UNIQUE INDEX addon_installations_key_room_uq ON addon_installations (addon_key, coalesce(room_id, 0))');
    await q.query('CREATE INDEX addon_installations_room_idx ON addon_installations (room_id) WHERE room_id IS NOT NULL');

    await q.query(`
      CREATE TABLE oauth_clients (
        id              varchar(36)  PRIMARY KEY,
        secret          text         NOT NULL,
        installation_id integer      NOT NULL REFERENCES addon_installations (id) ON DELETE CASCADE,
        allowed_scopes  text[]       NOT NULL DEFAULT '{}',
        room_id         integer      REFERENCES rooms (id) ON DELETE CASCADE,
        created_at      timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX oauth_clients_installation_idx ON oauth_clients (installation_id)');

    await q.query(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_installation_fk
      FOREIGN KEY (installation_id) REFERENCES addon_installations (id) ON DELETE CASCADE`);

    // An add-on token's installation: uninstalling revokes them (kept, revoked, for the record).
    await q.query('ALTER TABLE api_tokens ADD COLUMN addon_installation_id integer REFERENCES addon_installations (id) ON DELETE SET NULL');
    await q.query('CREATE INDEX api_tokens_addon_installation_idx ON api_tokens (addon_installation_id) WHERE addon_installation_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS api_tokens_addon_installation_idx');
    await q.query('ALTER TABLE api_tokens DROP COLUMN IF EXISTS addon_installation_id');
    await q.query('ALTER TABLE webhooks DROP CONSTRAINT IF EXISTS webhooks_installation_fk');
    await q.query('DELETE FROM webhooks WHERE installation_id IS NOT NULL');
    await q.query('DROP TABLE IF EXISTS oauth_clients');
    await q.query('DROP TABLE IF EXISTS addon_installations');
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook registrations: those made through the REST API (a room's, by a user's token) and
 * those an installed add-on declares (`installation_id`; `room_id` NULL when installed
 * group-wide). A key is unique within its integration: the add-on installation for add-on
 * webhooks, else the room and the registering user.
 */
export class Webhooks1764100000000 implements MigrationInterface {
  name = 'Webhooks1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id                  serial       PRIMARY KEY,
        room_id             integer      REFERENCES rooms (id) ON DELETE CASCADE,
        event               varchar(32)  NOT NULL,
        url                 text         NOT NULL,
        pattern             text,
        name                varchar(100) NOT NULL DEFAULT '',
        authentication      varchar(4)   NOT NULL DEFAULT 'none' CHECK (authentication IN ('jwt', 'none')),
        key                 varchar(40),
        -- In clear: deliveries are signed with it (HMAC, JWT).
        secret              text         NOT NULL,
        -- The add-on installation that declared it (its table comes with add-ons).
        installation_id     integer,
        oauth_client_id     varchar,
        created_by_user_id  integer      REFERENCES users (id),
        created_by_token_id integer,
        created_at          timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT webhooks_group_wide_addon_only CHECK (room_id IS NOT NULL OR installation_id IS NOT NULL),
        CONSTRAINT webhooks_pattern_message_only CHECK (pattern IS NULL OR event = 'room_message')
      )`);
    await q.query('CREATE INDEX webhooks_room_idx ON webhooks (room_id)');
    await q.query('CREATE INDEX webhooks_installation_idx ON webhooks (installation_id) WHERE installation_id IS NOT NULL');
    await q.query(`CREATE UNIQUE INDEX webhooks_installation_key_uq ON webhooks (installation_id, key)
      WHERE installation_id IS NOT NULL AND key IS NOT NULL`);
    // A user without an id (none today) still forms one integration per room: NULLs would never clash.
    await q.query(`CREATE UNIQUE INDEX webhooks_registrant_key_uq ON webhooks (room_id, coalesce(created_by_user_id, 0), key)
      WHERE installation_id IS NULL AND key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS webhooks');
  }
}

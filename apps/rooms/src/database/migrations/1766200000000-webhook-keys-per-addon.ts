import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A REST registration's key is unique within its registrant, and an add-on's token is a
 * registrant of its own: its installation (the OAuth client that signs its webhooks, copied
 * into `oauth_client_id`), not "no user". Before, every registration made without a user
 * shared one namespace of keys per room, so a second add-on's PUT by key found, and
 * re-pointed, the first one's webhook. The index says the registrant as
 * webhook.repository.ts (REGISTRANT) does. The previous version reads no index by name and
 * only ever inserts keys the new index also accepts.
 */
export class WebhookKeysPerAddOn1766200000000 implements MigrationInterface {
  name = 'WebhookKeysPerAddOn1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhooks_registrant_key_uq');
    await q.query(`CREATE UNIQUE INDEX webhooks_registrant_key_uq
      ON webhooks (room_id, coalesce(created_by_user_id, 0), coalesce(oauth_client_id, ''), key)
      WHERE installation_id IS NULL AND key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhooks_registrant_key_uq');
    await q.query(`CREATE UNIQUE INDEX webhooks_registrant_key_uq ON webhooks (room_id, coalesce(created_by_user_id, 0), key)
      WHERE installation_id IS NULL AND key IS NOT NULL`);
  }
}

import { secretPurpose } from '@app/common';
import { DataSource } from 'typeorm';

/**
 * Where secrets are kept: a table's column (and, for the command log, the reply's field).
 * In this order: sealing a bridge's Matrix token again is a registration change, whose
 * trigger keeps the form it ends (the token under the old key) in webhooks_removed, so
 * removed_bridge_matrix_tokens comes after bridge_matrix_tokens. Sealing a URL again is no
 * registration change (see RESEALING_URLS), but removed_webhook_urls comes after
 * webhook_urls all the same.
 */
export const SECRET_PLACES = [
  'oauth_clients', 'webhooks', 'webhooks_removed', 'applied_commands', 'bridge_matrix_tokens', 'bridge_inbound_tokens', 'bridge_inbound_hmac_secrets',
  'removed_bridge_matrix_tokens', 'bridge_inbound_keys', 'webhook_urls', 'removed_webhook_urls', 'webhook_reply_urls',
] as const;
export type SecretPlace = (typeof SECRET_PLACES)[number];

/** One stored secret: where, the row, the purpose it is sealed for, and the value as stored. */
export interface StoredSecret {
  place: SecretPlace;
  /** The row's key, as the replace statement takes it. */
  row: string[];
  purpose: string;
  value: string;
}

/** What can tell the stored secrets and replace one (SecretsRepository; a fake in the specs). */
export interface SecretStore {
  /** Every stored secret not sealed with the key `keyId` (in clear, or under another key), at most `limit` after `after` of a place. */
  notUnder(place: SecretPlace, keyId: string, limit: number, after: string[] | null): Promise<StoredSecret[]>;
  /** How many stored secrets of a place there are. */
  count(place: SecretPlace): Promise<number>;
  /** Replaces the value if it is still `s.value` (another replica, or a deletion, may have got there first). */
  replace(s: StoredSecret, value: string): Promise<boolean>;
}

const notUnder = (column: string) => `${column} IS NOT NULL AND ${column} NOT LIKE 'enc:v1:' || $1 || ':%'`;

interface PlaceSql {
  /**
   * The update runs with `chat.resealing_urls` set in its transaction: the trigger on
   * `webhooks` then takes a change of `url` alone for what it is, the same URL sealed again,
   * not a new URL (migration SealedWebhookUrls1766850000000).
   */
  resealsUrl?: true;
  select: string;
  count: string;
  update: string;
  purpose(r: Record<string, string | number | null>): string;
  row(r: Record<string, string | number | null>): string[];
  /** The last row's key as the select's $2 takes it. */
  after(row: string[]): unknown;
}

const firstKey = (row: string[]): string => row[0];

/** A secret kept in a column of a webhooks row (a bridge's: null where the bridge has none). */
const bridgeColumn = (column: string, purpose: (id: number) => string): PlaceSql => ({
  select: `SELECT id, ${column} AS secret FROM webhooks WHERE ${notUnder(column)} AND ($2::int IS NULL OR id > $2) ORDER BY id LIMIT $3`,
  count: `SELECT count(*)::int AS n FROM webhooks WHERE ${column} IS NOT NULL`,
  update: `UPDATE webhooks SET ${column} = $3 WHERE id = $1::int AND ${column} = $2`,
  purpose: (r) => purpose(Number(r.id)),
  row: (r) => [String(r.id)],
  after: firstKey,
});

/**
 * A column of the forms kept in webhooks_removed (a deleted webhook's or bridge's, 7 days,
 * so that an event caused before, its room's room_deleted, is still delivered), keyed by id
 * and the version that removed it.
 */
const removedColumn = (column: string, purpose: (r: Record<string, string | number | null>) => string): PlaceSql => ({
  select: `SELECT id, removed_version::text AS removed_version, oauth_client_id, ${column} AS secret FROM webhooks_removed
            WHERE ${notUnder(column)} AND ($2::bigint[] IS NULL OR (id::bigint, removed_version) > ($2[1], $2[2])) ORDER BY id, removed_version LIMIT $3`,
  count: `SELECT count(*)::int AS n FROM webhooks_removed WHERE ${column} IS NOT NULL`,
  update: `UPDATE webhooks_removed SET ${column} = $4 WHERE id = $1::int AND removed_version = $2::bigint AND ${column} = $3`,
  purpose,
  row: (r) => [String(r.id), String(r.removed_version)],
  after: (row) => row.map(Number),
});

/**
 * A secret inside the stored replies of applied_commands (kept a day, so that a redelivered
 * command answers its first reply): at `path` in the reply of the commands whose reply shows a
 * `owner` (a webhook, a bridge), sealed for that owner's id.
 */
const replyField = (owner: 'webhook' | 'bridge', path: string[], purpose: (id: number) => string): PlaceSql => {
  const at = `'{${path.join(',')}}'`;
  const value = `(reply #>> ${at})`;
  const isText = `reply ? '${owner}' AND jsonb_typeof(reply #> ${at}) = 'string'`;
  return {
    select: `SELECT command_id::text AS command_id, reply->'${owner}'->>'id' AS owner_id, ${value} AS secret FROM applied_commands
              WHERE ${isText} AND ${notUnder(value)} AND ($2::uuid IS NULL OR command_id > $2::uuid) ORDER BY command_id LIMIT $3`,
    count: `SELECT count(*)::int AS n FROM applied_commands WHERE ${isText}`,
    update: `UPDATE applied_commands SET reply = jsonb_set(reply, ${at}, to_jsonb($3::text)) WHERE command_id = $1::uuid AND ${value} = $2`,
    purpose: (r) => purpose(Number(r.owner_id)),
    row: (r) => [String(r.command_id)],
    after: firstKey,
  };
};

// Each page is read in the order of the row's key ($2 null: the first page): rows already
// sealed fall out of the filter, and one that cannot be opened does not hold the loop up.
const SQL: Record<SecretPlace, PlaceSql> = {
  oauth_clients: {
    select: `SELECT id, secret FROM oauth_clients WHERE ${notUnder('secret')} AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    count: 'SELECT count(*)::int AS n FROM oauth_clients',
    update: 'UPDATE oauth_clients SET secret = $3 WHERE id = $1 AND secret = $2',
    purpose: (r) => secretPurpose.oauthClient(String(r.id)),
    row: (r) => [String(r.id)],
    after: firstKey,
  },
  webhooks: {
    select: `SELECT id, oauth_client_id, secret FROM webhooks WHERE ${notUnder('secret')} AND ($2::int IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    count: 'SELECT count(*)::int AS n FROM webhooks',
    update: 'UPDATE webhooks SET secret = $3 WHERE id = $1::int AND secret = $2',
    purpose: (r) => secretPurpose.signing({ id: Number(r.id), oauthClientId: r.oauth_client_id as string | null }),
    row: (r) => [String(r.id)],
    after: firstKey,
  },
  webhooks_removed: removedColumn('secret', (r) => secretPurpose.signing({ id: Number(r.id), oauthClientId: r.oauth_client_id as string | null })),
  // The replies of the commands that answer a webhook's new secret (create, put), kept a day.
  applied_commands: replyField('webhook', ['secret'], secretPurpose.webhook),
  bridge_matrix_tokens: bridgeColumn('matrix_access_token', secretPurpose.bridgeToken),
  bridge_inbound_tokens: bridgeColumn('inbound_token', (id) => secretPurpose.bridgeInbound(id, 'token')),
  bridge_inbound_hmac_secrets: bridgeColumn('inbound_hmac_secret', (id) => secretPurpose.bridgeInbound(id, 'hmac_secret')),
  // A deleted (or changed) bridge's form keeps its Matrix token: the dispatchers post its
  // room's room_deleted with it.
  removed_bridge_matrix_tokens: removedColumn('matrix_access_token', (r) => secretPurpose.bridgeToken(Number(r.id))),
  // The replies of the bridge changes that answer a new inbound URL (create, put), kept a
  // day: the key itself is stored nowhere else (the row keeps its hash).
  bridge_inbound_keys: replyField('bridge', ['inboundKey'], secretPurpose.bridgeInboundKey),
  // A webhook's or bridge's URL (the credential of a platform's incoming webhook), and the
  // forms kept of it in webhooks_removed (the trigger copies the URL as stored).
  webhook_urls: { ...bridgeColumn('url', secretPurpose.webhookUrl), resealsUrl: true },
  removed_webhook_urls: removedColumn('url', (r) => secretPurpose.webhookUrl(Number(r.id))),
  // The replies that show a webhook (create, put, enable), kept a day: its URL, whole for its creator.
  webhook_reply_urls: replyField('webhook', ['webhook', 'url'], secretPurpose.webhookUrl),
};

/** The setting by which a reseal tells the trigger on `webhooks` that the URL is the same (PlaceSql.resealsUrl). */
const RESEALING_URLS = `SELECT set_config('chat.resealing_urls', 'on', true)`;

const affected = (result: unknown): number => (Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0);

/** SQL of the secrets kept at rest, wherever they are (see SECRET_PLACES). */
export class SecretsRepository implements SecretStore {
  constructor(private readonly db: DataSource) {}

  async notUnder(place: SecretPlace, keyId: string, limit: number, after: string[] | null): Promise<StoredSecret[]> {
    const sql = SQL[place];
    const key = after === null ? null : sql.after(after);
    const rows: Array<Record<string, string | number | null>> = await this.db.query(sql.select, [keyId, key, limit]);
    return rows.map((r) => ({ place, row: sql.row(r), purpose: sql.purpose(r), value: String(r.secret) }));
  }

  async count(place: SecretPlace): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(SQL[place].count);
    return rows[0].n;
  }

  async replace(s: StoredSecret, value: string): Promise<boolean> {
    // One statement per row, compared and set: safe with any number of replicas at once.
    const sql = SQL[s.place];
    const params = [...s.row, s.value, value];
    if (!sql.resealsUrl) return affected(await this.db.query(sql.update, params)) > 0;
    return this.db.transaction(async (m) => {
      await m.query(RESEALING_URLS);
      return affected(await m.query(sql.update, params)) > 0;
    });
  }
}

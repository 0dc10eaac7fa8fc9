import { Injectable } from '@nestjs/common';
import { SecretBox, sealedWebhookUrl } from '@app/common';
import { AddonInstallationView, V2_SCOPES, V2Scope } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../shared/db-errors';
import type { AddonDescriptor, DeclaredWebhook } from './descriptor';

/** What an installation is made of before it has an id. */
export interface NewInstallation {
  descriptor: AddonDescriptor;
  /** The descriptor as fetched, kept for the record. */
  raw: unknown;
  descriptorUrl: string;
  /** The `capabilitiesUrl` the add-on is told. */
  capabilitiesUrl: string;
  roomId: number | null;
  oauthClientId: string;
  installedByUserId: number | null;
}

/** An installation as its removal needs it. */
export interface InstallationRef {
  id: number;
  roomId: number | null;
  callbackUrl: string;
  oauthClientId: string;
}

/** An OAuth client, with what its tokens are made of. */
export interface OAuthClient {
  id: string;
  secret: string;
  installationId: number;
  allowedScopes: V2Scope[];
  roomId: number | null;
  /** The add-on's name: its tokens' label (the sender of what they send). */
  name: string;
}

export interface NewAddonToken {
  tokenHash: string;
  label: string;
  installationId: number;
  roomId: number | null;
  scopes: V2Scope[];
  expiresInSeconds: number;
}

interface InstallationRow {
  id: number; addon_key: string; name: string; descriptor_url: string; callback_url: string; room_id: number | null;
  oauth_client_id: string; scopes: string[]; installed_by_user_id: number | null; created_at: Date; webhook_ids: number[] | null;
}

const VIEW_SELECT = `SELECT i.id, i.addon_key, i.name, i.descriptor_url, i.callback_url, i.room_id, i.oauth_client_id, i.scopes,
    i.installed_by_user_id, i.created_at,
    ARRAY(SELECT w.id FROM webhooks w WHERE w.installation_id = i.id ORDER BY w.id) AS webhook_ids
  FROM addon_installations i`;

const scopesOf = (raw: string[] | null): V2Scope[] =>
  (raw ?? []).filter((s): s is V2Scope => (V2_SCOPES as readonly string[]).includes(s));

const toView = (r: InstallationRow): AddonInstallationView => ({
  id: r.id,
  key: r.addon_key,
  name: r.name,
  descriptorUrl: r.descriptor_url,
  callbackUrl: r.callback_url,
  roomId: r.room_id,
  oauthClientId: r.oauth_client_id,
  scopes: scopesOf(r.scopes),
  webhookIds: (r.webhook_ids ?? []).map(Number),
  installedByUserId: r.installed_by_user_id,
  created: r.created_at.toISOString(),
});

/** UPDATE/DELETE ... RETURNING answers [rows, count] through TypeORM. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray((result as unknown[])[0]) ? (result as T[][])[0] : (result as T[]));

/** The add-on is already installed there (the unique index on key and room). */
export class AlreadyInstalled extends Error {}

/** SQL of add-on installations, their OAuth clients, and the webhooks and tokens that belong to them. */
@Injectable()
export class AddonRepository {
  constructor(private readonly box: SecretBox) {}

  /**
   * The installation, its OAuth client and its webhooks (signed with the client's secret).
   * `sealedSecret`: the client's secret sealed (secretPurpose.oauthClient), never in clear.
   */
  async insertInstallation(m: EntityManager, n: NewInstallation, sealedSecret: string): Promise<{ id: number; webhookIds: number[] }> {
    const d = n.descriptor;
    let id: number;
    try {
      const rows: Array<{ id: number }> = await m.query(
        `INSERT INTO addon_installations
           (addon_key, name, descriptor_url, capabilities_url, callback_url, room_id, oauth_client_id, scopes, descriptor, installed_by_user_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [d.key, d.name, n.descriptorUrl, n.capabilitiesUrl, d.callbackUrl, n.roomId, n.oauthClientId, d.scopes, JSON.stringify(n.raw), n.installedByUserId]);
      id = rows[0].id;
    } catch (err) {
      if (isUniqueViolation(err, 'addon_installations_key_room_uq')) throw new AlreadyInstalled();
      throw err;
    }
    await m.query(
      'INSERT INTO oauth_clients (id, secret, installation_id, allowed_scopes, room_id) VALUES ($1, $2, $3, $4, $5)',
      [n.oauthClientId, sealedSecret, id, d.scopes, n.roomId]);
    const webhookIds = await this.insertWebhooks(m, id, n, sealedSecret, d.webhooks);
    return { id, webhookIds };
  }

  private async insertWebhooks(m: EntityManager, installationId: number, n: NewInstallation, secret: string, hooks: DeclaredWebhook[]): Promise<number[]> {
    if (hooks.length === 0) return [];
    // The ids first, in the order declared: each URL is sealed for its row.
    const ids: Array<{ id: number }> = await m.query(
      `SELECT nextval(pg_get_serial_sequence('webhooks', 'id'))::int AS id FROM generate_series(1, $1::int) ORDER BY 1`, [hooks.length]);
    const rows: Array<{ id: number }> = await m.query(
      `INSERT INTO webhooks (id, room_id, event, url, pattern, name, authentication, delivery, key, secret, installation_id, oauth_client_id)
       SELECT h.id, $1::int, h.event, h.url, h.pattern, h.name, h.authentication, h.delivery, h.key, $2, $3::int, $4
         FROM json_to_recordset($5::json) AS h(id int, event text, url text, pattern text, name text, authentication text, delivery text, key text)
        ORDER BY h.id
       RETURNING id`,
      [n.roomId, secret, installationId, n.oauthClientId,
        JSON.stringify(hooks.map((h, i) => ({ ...h, id: ids[i].id, url: sealedWebhookUrl(this.box, ids[i].id, h.url) })))]);
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  async findView(m: EntityManager, id: number): Promise<AddonInstallationView | null> {
    const rows: InstallationRow[] = await m.query(`${VIEW_SELECT} WHERE i.id = $1`, [id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  async listViews(m: EntityManager, offset: number, limit: number): Promise<AddonInstallationView[]> {
    const rows: InstallationRow[] = await m.query(`${VIEW_SELECT} ORDER BY i.id OFFSET $1 LIMIT $2`, [offset, limit]);
    return rows.map(toView);
  }

  /** The installation, locked until the commit (two removals of one installation do not race). */
  async lockForRemoval(m: EntityManager, id: number): Promise<InstallationRef | null> {
    const rows: Array<{ id: number; room_id: number | null; callback_url: string; oauth_client_id: string }> = await m.query(
      'SELECT id, room_id, callback_url, oauth_client_id FROM addon_installations WHERE id = $1 FOR UPDATE', [id]);
    const r = rows[0];
    return r ? { id: r.id, roomId: r.room_id, callbackUrl: r.callback_url, oauthClientId: r.oauth_client_id } : null;
  }

  /** The installations confined to a room, locked until the commit (the room is being deleted). */
  async lockOfRoom(m: EntityManager, roomId: number): Promise<InstallationRef[]> {
    const rows: Array<{ id: number; room_id: number | null; callback_url: string; oauth_client_id: string }> = await m.query(
      'SELECT id, room_id, callback_url, oauth_client_id FROM addon_installations WHERE room_id = $1 ORDER BY id FOR UPDATE', [roomId]);
    return rows.map((r) => ({ id: r.id, roomId: r.room_id, callbackUrl: r.callback_url, oauthClientId: r.oauth_client_id }));
  }

  /** Revokes the live tokens confined to a room (room tokens and its add-ons' tokens); answers their ids. */
  revokeRoomTokens(m: EntityManager, roomId: number): Promise<number[]> {
    return this.revokeWhere(m, 'room_id', roomId);
  }

  /** Revokes the installation's live tokens; answers their ids. */
  revokeTokens(m: EntityManager, installationId: number): Promise<number[]> {
    return this.revokeWhere(m, 'addon_installation_id', installationId);
  }

  private async revokeWhere(m: EntityManager, column: 'room_id' | 'addon_installation_id', value: number): Promise<number[]> {
    const result = await m.query(
      `UPDATE api_tokens SET revoked_at = now()
        WHERE ${column} = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        RETURNING id`, [value]);
    return rowsOf<{ id: number }>(result).map((r) => r.id).sort((a, b) => a - b);
  }

  /**
   * Deletes the installation with its OAuth client and its webhooks: those its descriptor
   * declared and those its tokens registered through the REST API. Answers the webhooks'
   * ids by room (null: group-wide).
   */
  async delete(m: EntityManager, id: number): Promise<Map<number | null, number[]>> {
    const result = await m.query(
      `DELETE FROM webhooks WHERE installation_id = $1
          OR created_by_token_id IN (SELECT t.id FROM api_tokens t WHERE t.addon_installation_id = $1)
        RETURNING id, room_id`, [id]);
    await m.query('DELETE FROM addon_installations WHERE id = $1', [id]);
    const byRoom = new Map<number | null, number[]>();
    for (const r of rowsOf<{ id: number; room_id: number | null }>(result).sort((a, b) => a.id - b.id)) {
      byRoom.set(r.room_id, [...(byRoom.get(r.room_id) ?? []), r.id]);
    }
    return byRoom;
  }

  /** The client; its `secret` as stored (sealed: open it with secretPurpose.oauthClient). */
  async findClient(m: EntityManager, clientId: string): Promise<OAuthClient | null> {
    const rows: Array<{ id: string; secret: string; installation_id: number; allowed_scopes: string[]; room_id: number | null; name: string }> = await m.query(
      `SELECT c.id, c.secret, c.installation_id, c.allowed_scopes, c.room_id, i.name
         FROM oauth_clients c JOIN addon_installations i ON i.id = c.installation_id WHERE c.id = $1`, [clientId]);
    const r = rows[0];
    return r ? { id: r.id, secret: r.secret, installationId: r.installation_id, allowedScopes: scopesOf(r.allowed_scopes), roomId: r.room_id, name: r.name } : null;
  }

  /** An add-on token (its hash only), expiring; expired ones of the installation older than a day go. */
  async insertToken(m: EntityManager, t: NewAddonToken): Promise<number> {
    await m.query(
      `DELETE FROM api_tokens WHERE addon_installation_id = $1 AND kind = 'addon' AND expires_at < now() - interval '1 day'`, [t.installationId]);
    const rows: Array<{ id: number }> = await m.query(
      `INSERT INTO api_tokens (token_hash, kind, label, room_id, scopes, expires_at, addon_installation_id)
       VALUES ($1, 'addon', $2, $3, $4, now() + make_interval(secs => $5), $6) RETURNING id`,
      [t.tokenHash, t.label, t.roomId, t.scopes, t.expiresInSeconds, t.installationId]);
    return rows[0].id;
  }

  /**
   * The installation an add-on token belongs to, with its room (null: group-wide), or null
   * for any other token: what a check "an add-on installed in this room" needs.
   */
  async installationOfToken(m: EntityManager, tokenId: number): Promise<{ installationId: number; roomId: number | null } | null> {
    const rows: Array<{ id: number; room_id: number | null }> = await m.query(
      `SELECT i.id, i.room_id FROM api_tokens t JOIN addon_installations i ON i.id = t.addon_installation_id
        WHERE t.id = $1 AND t.kind = 'addon'`, [tokenId]);
    return rows[0] ? { installationId: rows[0].id, roomId: rows[0].room_id } : null;
  }
}

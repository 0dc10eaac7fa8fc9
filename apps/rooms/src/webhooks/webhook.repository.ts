import { Injectable } from '@nestjs/common';
import { maskedUrl, openWebhookUrl, preparedQuery, SecretBox, sealedWebhookUrl } from '@app/common';
import {
  Actor, BridgeKind, NO_WEBHOOK_HEALTH, RoomRef, WebhookAuthentication, WebhookDeliveryMode, WebhookEventName, WebhookHealthView, WebhookRef, WebhookRegistration, WebhookView,
} from '@app/contracts';
import { EntityManager } from 'typeorm';
import { RoomEntity } from '../database/entities';
import type { WebhookViewer } from '../rooms/room-access';
import { mayManageWebhookSql, roomRefParam, roomRefWhere, standingColumns, standingFromRow, standingParams, StandingRow, webhookViewerParams } from '../rooms/room-access.sql';
import { joinedRoom } from '../rooms/room.repository';
import { isUniqueViolation } from '../shared/db-errors';
import { Registrant, WebhookFields, webhookKeyTaken, webhookNotFound } from './webhook-rules';

/**
 * A webhook as stored: its view, its secret and who registered it; its health where the
 * query reads it (the API's reads, not the dispatchers' snapshot). Its URL opened (the row
 * keeps it sealed, secretPurpose.webhookUrl(id)), but in the dispatchers' snapshot
 * (listVersioned), which travels sealed and is opened by the dispatcher that loads it.
 */
export type StoredWebhook = WebhookRegistration & Pick<WebhookView, 'enabled' | 'disabledReason' | 'disabledAt'> & { health?: WebhookHealthView };

/** `url` in clear: the repository seals it for the row (secretPurpose.webhookUrl(id)). */
export interface NewWebhook extends WebhookFields {
  /** Taken from the sequence first (nextId): the sealed secret is bound to it. */
  id: number;
  key: string | null;
  /** Sealed (SecretBox, secretPurpose.webhook(id)): never in clear at rest. */
  secret: string;
  userId: number | null;
  tokenId: number | null;
}

const COLUMNS = `id, room_id, event, url, pattern, name, authentication, delivery, key, secret, installation_id, oauth_client_id,
  created_by_user_id, created_at, enabled, disabled_reason, disabled_at, bridge_kind, bridge_events, matrix_room_id, matrix_access_token`;
const W_COLUMNS = COLUMNS.split(',').map((c) => `w.${c.trim()}`).join(', ');

/** The health columns of a webhook `w` joined to its `webhook_health` row `h` (none yet: no row), as HealthRow. */
export const HEALTH_COLUMNS = `h.last_success_at, h.failing_since, coalesce(h.consecutive_failures, 0) AS consecutive_failures,
    h.last_failure_at, h.last_error`;
export const HEALTH_JOIN = 'FROM webhooks w LEFT JOIN webhook_health h ON h.webhook_id = w.id';

/** HEALTH_COLUMNS as read. */
export interface HealthRow {
  last_success_at: Date | null; failing_since: Date | null; consecutive_failures: number; last_failure_at: Date | null; last_error: string | null;
}

/** A webhook's (or bridge's) health, from HEALTH_COLUMNS. */
export const healthOf = (r: HealthRow): WebhookHealthView => ({
  lastSuccessAt: r.last_success_at?.toISOString() ?? null,
  failingSince: r.failing_since?.toISOString() ?? null,
  consecutiveFailures: r.consecutive_failures,
  lastFailureAt: r.last_failure_at?.toISOString() ?? null,
  lastError: r.last_error ?? null,
});

/** A webhook with its health. */
const WITH_HEALTH = `SELECT ${W_COLUMNS}, ${HEALTH_COLUMNS} ${HEALTH_JOIN}`;

interface WebhookRow {
  id: number; room_id: number | null; event: WebhookEventName; url: string; pattern: string | null; name: string;
  authentication: WebhookAuthentication; delivery: WebhookDeliveryMode; key: string | null; secret: string; installation_id: number | null;
  oauth_client_id: string | null; created_by_user_id: number | null; created_at: Date;
  enabled: boolean; disabled_reason: string | null; disabled_at: Date | null;
  /** Set for a bridge (bridges/bridge.repository.ts): it is delivered as a webhook that posts in its platform's format. */
  bridge_kind: BridgeKind | null; bridge_events: WebhookEventName[] | null; matrix_room_id: string | null; matrix_access_token: string | null;
  /** Only where the query joins the health (WITH_HEALTH). */
  last_success_at?: Date | null; failing_since?: Date | null; consecutive_failures?: number; last_failure_at?: Date | null; last_error?: string | null;
  /** Only where the query joins the add-on (listVersioned). */
  addon_name?: string | null;
  /** Only in the dispatchers' reads (listVersioned): the versions the row is in force for (bigint, as text). */
  created_version?: string;
  removed_version?: string | null;
}

const toStored = (r: WebhookRow): StoredWebhook => ({
  id: r.id,
  roomId: r.room_id,
  event: r.event,
  url: r.url,
  pattern: r.pattern,
  name: r.name,
  authentication: r.authentication,
  delivery: r.delivery,
  key: r.key,
  installationId: r.installation_id,
  oauthClientId: r.oauth_client_id,
  created: r.created_at.toISOString(),
  secret: r.secret,
  userId: r.created_by_user_id,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: r.disabled_at?.toISOString() ?? null,
  ...(r.consecutive_failures !== undefined ? { health: healthOf(r as HealthRow) } : {}),
  ...(r.bridge_kind !== null && r.bridge_kind !== undefined ? {
    bridge: { kind: r.bridge_kind, events: r.bridge_events ?? [r.event], matrixRoomId: r.matrix_room_id, matrixAccessToken: r.matrix_access_token },
  } : {}),
  ...(r.addon_name !== undefined ? { addonName: r.addon_name } : {}),
  ...(r.created_version !== undefined ? { createdVersion: Number(r.created_version) } : {}),
  ...(r.removed_version != null ? { removedVersion: Number(r.removed_version) } : {}),
});

/**
 * The API's view: never the secret, nor who registered it. A webhook read without its health
 * has none yet (just made). `masked`: the viewer is not its creator (room-access.ts,
 * isWebhookCreator), and is shown its URL masked.
 */
export function toWebhookView(w: StoredWebhook, masked = false): WebhookView {
  return {
    id: w.id, roomId: w.roomId, event: w.event, url: masked ? maskedUrl(w.url) : w.url, pattern: w.pattern, name: w.name,
    authentication: w.authentication, delivery: w.delivery, key: w.key, installationId: w.installationId, oauthClientId: w.oauthClientId, created: w.created,
    enabled: w.enabled, disabledReason: w.disabledReason, disabledAt: w.disabledAt, health: w.health ?? { ...NO_WEBHOOK_HEALTH },
    ...(masked ? { urlMasked: true } : {}),
  };
}

/** The dispatchers' reads (listVersioned): the registrations in force, and the forms removed or replaced lately. */
const IN_FORCE = `SELECT ${COLUMNS}, created_by_token_id, created_version, NULL::bigint AS removed_version FROM webhooks`;
const REMOVED = `SELECT ${COLUMNS}, created_by_token_id, created_version, removed_version FROM webhooks_removed`;

/**
 * A HipChat webhook, not a bridge: the webhook API's reads and changes see only these (a
 * bridge's id, from the same sequence, names no webhook). What a bridge shares with webhooks
 * (versioning, health, disabling, lost access, deletion with its room) reads every row.
 */
export const HIPCHAT_WEBHOOK = (w: string): string => `${w}.bridge_kind IS NULL`;

/** A fixed first key for the per-room advisory lock of webhook changes (the second is the room id). */
const WEBHOOKS_LOCK_CLASS = 7_411_903;

/**
 * The webhook a reference names in a room (`room`, `user`, `addOn`, `key`: SQL expressions):
 * by id, any of the room's; by key, the registrant's own (the user's, or the add-on's its
 * token registered), else one an add-on installed in the room declared with that key (the
 * webhook rule then decides whether the caller may see it; nobody changes it through the
 * API). A WHERE clause and its order.
 */
const REF_CLAUSE = {
  id: (room: string, id: string) => `WHERE w.room_id = ${room} AND w.id = ${id} AND ${HIPCHAT_WEBHOOK('w')}`,
  key: (room: string, user: string, addOn: string, key: string) => `WHERE w.room_id = ${room} AND w.key = ${key} AND ${HIPCHAT_WEBHOOK('w')}
          AND (w.installation_id IS NOT NULL OR (${REGISTRANT('w', user, addOn)}))
        ORDER BY (w.installation_id IS NOT NULL), w.id LIMIT 1`,
};

/** A REST registration of this registrant (`user`, `addOn`: SQL expressions): the unique index on keys says the same. */
const REGISTRANT = (w: string, user: string, addOn: string) =>
  `coalesce(${w}.created_by_user_id, 0) = coalesce(${user}::int, 0) AND coalesce(${w}.oauth_client_id, '') = coalesce(${addOn}::text, '')`;

/** A webhook's creator as the private-room rule reads them in the webhook's room (see creatorLostAccess). */
export interface CreatorStanding {
  webhookId: number;
  roomId: number;
  room: Pick<RoomEntity, 'privacy'>;
  /** What the audit log names it by (creatorStandings only). */
  webhook?: { name: string | null; url: string; bridgeKind?: BridgeKind | null };
  creator: { id: number; isDeleted: boolean; isGroupAdmin: boolean; isMember: boolean; isOwner: boolean };
}

interface CreatorStandingRow extends StandingRow {
  id: number; room_id: number; privacy: RoomEntity['privacy']; user_id: number; is_deleted: boolean; is_owner: boolean;
  name?: string | null; url?: string; bridge_kind?: BridgeKind | null;
}

/** The creator's standing in the room `r`, by the access model's own SQL (the user `u` acting, no token). */
const CREATOR_STANDING = standingColumns('r', 'u.id', 'NULL');

const toCreatorStanding = (r: CreatorStandingRow): CreatorStanding => ({
  webhookId: r.id, roomId: r.room_id, room: { privacy: r.privacy }, ...(r.url !== undefined ? { webhook: { name: r.name ?? null, url: r.url, bridgeKind: r.bridge_kind ?? null } } : {}),
  creator: { id: r.user_id, isDeleted: r.is_deleted, isGroupAdmin: r.actor__is_group_admin === true, isMember: r.actor__is_member === true, isOwner: r.is_owner },
});

const rowsOf = <T>(result: unknown): T[] => (Array.isArray((result as unknown[])[0]) ? (result as T[][])[0] : (result as T[]));

/**
 * The URL a change of a row of `webhooks` writes: the stored value when it opens to the same
 * URL (a new seal would differ, and the trigger would take a change that changes nothing for
 * a registration change), else the new one sealed.
 */
export async function webhookUrlToWrite(m: EntityManager, box: SecretBox, id: number, url: string): Promise<string> {
  const rows: Array<{ url: string }> = await m.query('SELECT url FROM webhooks WHERE id = $1', [id]);
  const stored = rows[0]?.url;
  return stored !== undefined && SecretBox.isSealed(stored) && openWebhookUrl(box, stored, id) === url ? stored : sealedWebhookUrl(box, id, url);
}

/** SQL of webhook registrations (`webhooks`): their URLs sealed as written, opened as read. */
@Injectable()
export class WebhookRepository {
  constructor(private readonly box: SecretBox) {}

  /** A row as the rooms service uses it: its URL opened. */
  private stored(r: WebhookRow): StoredWebhook {
    return toStored({ ...r, url: openWebhookUrl(this.box, r.url, r.id) });
  }

  /**
   * Serializes the webhook changes of one room until the commit, so that the count and key
   * checks hold when two registrations race, without locking the room row that sends share.
   */
  async lockRoom(m: EntityManager, roomId: number): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock($1, $2)', [WEBHOOKS_LOCK_CLASS, roomId]);
  }

  /** How many webhooks this registrant has in its room. */
  async countOf(m: EntityManager, r: Registrant): Promise<number> {
    const rows: Array<{ n: number }> = await m.query(
      `SELECT count(*)::int AS n FROM webhooks w WHERE w.room_id = $1 AND w.installation_id IS NULL AND ${HIPCHAT_WEBHOOK('w')}
          AND ${REGISTRANT('w', '$2', '$3')}`,
      [r.roomId, r.userId, r.addOn]);
    return rows[0].n;
  }

  /** The room's webhook with this id (add-on ones included). */
  async findById(m: EntityManager, roomId: number, id: number): Promise<StoredWebhook | null> {
    const rows: WebhookRow[] = await preparedQuery(m, `${WITH_HEALTH} ${REF_CLAUSE.id('$1', '$2')}`, [roomId, id]);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /** The webhook a key names in a room for this registrant (see REF_CLAUSE). */
  async findByKey(m: EntityManager, r: Registrant, key: string): Promise<StoredWebhook | null> {
    const rows: WebhookRow[] = await preparedQuery(m, `${WITH_HEALTH} ${REF_CLAUSE.key('$1', '$2', '$4', '$3')}`, [r.roomId, r.userId, key, r.addOn]);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /**
   * The room a reference names and the webhook a reference names in it for this user (see
   * REF_CLAUSE), in one statement where findByRef after the room's read made two round
   * trips: GET of a webhook asks for both, and so does every request of its delivery log.
   * With them, the user's standing in the room (what the private-room rule reads; null
   * when no user acts). Null for what is not there; the caller decides in the order of those
   * reads (the room, the actor's access to it, then the webhook).
   */
  async findWithRoom(
    m: EntityManager, room: RoomRef, actor: Pick<Actor, 'userId' | 'tokenId'>, ref: WebhookRef,
  ): Promise<{ room: RoomEntity | null; viewer: WebhookViewer; webhook: StoredWebhook | null }> {
    // $3, $4: the actor's user and token (standingColumns); the add-on that keys are scoped to is the token's, read in the statement.
    const [clause, params] = 'id' in ref
      ? [REF_CLAUSE.id('r.id', '$2'), [roomRefParam(room), ref.id, ...standingParams(actor)]]
      : [REF_CLAUSE.key('r.id', '$3', 'a.actor__addon', '$2'), [roomRefParam(room), ref.key, ...standingParams(actor)]];
    const rows: Array<WebhookRow & StandingRow & Record<string, unknown>> = await preparedQuery(m,
      `SELECT ${joinedRoom.columns('r')}, a.*, x.*
         FROM rooms r
         CROSS JOIN LATERAL (SELECT ${standingColumns('r', '$3', '$4')}) a
         LEFT JOIN LATERAL (${WITH_HEALTH} ${clause}) x ON true
        WHERE ${roomRefWhere('r', room, '$1')}`,
      params);
    const none: WebhookViewer = { standing: null, addOn: null };
    if (rows.length === 0) return { room: null, viewer: none, webhook: null };
    const row = rows[0];
    const found = joinedRoom.of(row);
    if (!found) return { room: null, viewer: none, webhook: null };
    return { room: found, viewer: standingFromRow(actor, found, row), webhook: row.id === null ? null : this.stored(row) };
  }

  /** The webhook a reference names for this registrant (by id: any of the room's; by key: see findByKey), or not_found. */
  async findByRef(m: EntityManager, r: Registrant, ref: WebhookRef): Promise<StoredWebhook> {
    const webhook = 'id' in ref ? await this.findById(m, r.roomId, ref.id) : await this.findByKey(m, r, ref.key);
    if (!webhook) throw webhookNotFound(ref);
    return webhook;
  }

  /**
   * A page of the room's webhooks (add-on ones included) that the viewer may see, by id: the
   * webhook rule (room-access.ts, mayManageWebhook) in its SQL form, as the page is cut after
   * the filter.
   */
  async listOfRoom(m: EntityManager, roomId: number, viewer: WebhookViewer, offset: number, limit: number): Promise<StoredWebhook[]> {
    const rows: WebhookRow[] = await m.query(
      `${WITH_HEALTH} WHERE w.room_id = $1 AND ${HIPCHAT_WEBHOOK('w')} AND ${mayManageWebhookSql('w', '$4', '$5', '$6')}
        ORDER BY w.id OFFSET $2 LIMIT $3`, [roomId, offset, limit, ...webhookViewerParams(viewer)]);
    return rows.map((r) => this.stored(r));
  }

  /** Any webhook by id, group-wide ones included (the operator's commands). */
  async findAnyById(m: EntityManager, id: number): Promise<StoredWebhook | null> {
    const rows: WebhookRow[] = await m.query(`${WITH_HEALTH} WHERE w.id = $1 AND ${HIPCHAT_WEBHOOK('w')}`, [id]);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /** Every webhook with its health (the room's only, when given), by id. */
  async listWithHealth(m: EntityManager, only: { roomId?: number; id?: number } = {}): Promise<StoredWebhook[]> {
    const where: string[] = [HIPCHAT_WEBHOOK('w')];
    const params: number[] = [];
    if (only.roomId !== undefined) where.push(`w.room_id = $${params.push(only.roomId)}`);
    if (only.id !== undefined) where.push(`w.id = $${params.push(only.id)}`);
    const rows: WebhookRow[] = await m.query(`${WITH_HEALTH} WHERE ${where.join(' AND ')} ORDER BY w.id`, params);
    return rows.map((r) => this.stored(r));
  }

  /**
   * Registrations as a dispatcher that does not open sealed URLs itself takes them (see
   * ListRegistrationsV1's `sealedUrls`): their URLs opened, as they were sent before they were sealed.
   */
  withOpenedUrls(registrations: StoredWebhook[]): StoredWebhook[] {
    return registrations.map((r) => ({ ...r, url: openWebhookUrl(this.box, r.url, r.id) }));
  }

  /** The registrations' version (advanced by insertOutbox with every registrations-changed event). */
  async registrationsVersion(m: EntityManager): Promise<number> {
    const rows: Array<{ value: string }> = await m.query('SELECT value FROM registrations_version');
    return Number(rows[0].value);
  }

  /** Every registration in force, with the version it is in force from. */
  listAll(m: EntityManager): Promise<StoredWebhook[]> {
    return this.listVersioned(m, IN_FORCE);
  }

  /**
   * The registrations in force written after `version` (registered or changed since: a
   * change writes a new row version, which the trigger stamps). Read through the index on
   * created_version, so a few changes cost the same among 10 or 10,000 registrations.
   */
  listWrittenSince(m: EntityManager, version: number): Promise<StoredWebhook[]> {
    return this.listVersioned(m, `${IN_FORCE} WHERE created_version > $1`, [version]);
  }

  /**
   * Every registration removed or replaced within the last days (webhooks_removed), as it
   * was, with the versions it was in force for: an event caused before the change is still
   * matched with it.
   */
  listRemoved(m: EntityManager): Promise<StoredWebhook[]> {
    return this.listVersioned(m, REMOVED);
  }

  /** The forms removed or replaced after `version` (through the index on removed_version). */
  listRemovedSince(m: EntityManager, version: number): Promise<StoredWebhook[]> {
    return this.listVersioned(m, `${REMOVED} WHERE removed_version > $1`, [version]);
  }

  private async listVersioned(m: EntityManager, from: string, params: unknown[] = []): Promise<StoredWebhook[]> {
    // The add-on: the one that declared it, or the one whose token registered it (while it exists).
    // A form replaced or disabled keeps no secret (the trigger): it signs with its webhook's,
    // or, the webhook deleted since, with the form its deletion kept.
    const rows: WebhookRow[] = await m.query(
      `SELECT ${W_COLUMNS.replace('w.secret', `coalesce(w.secret, live.secret,
         (SELECT r.secret FROM webhooks_removed r WHERE r.id = w.id AND r.secret IS NOT NULL ORDER BY r.removed_version DESC LIMIT 1)) AS secret`)}, i.name AS addon_name, w.created_version, w.removed_version
         FROM (${from}) w
         LEFT JOIN webhooks live ON w.secret IS NULL AND live.id = w.id
         LEFT JOIN api_tokens t ON t.id = w.created_by_token_id
         LEFT JOIN addon_installations i ON i.id = coalesce(w.installation_id, t.addon_installation_id)
        ORDER BY w.id, w.removed_version`, params);
    // The URL as stored: it travels sealed, as the secret does, and the dispatcher opens it once per load.
    return rows.map(toStored);
  }

  /**
   * A registration through the REST API; conflict naming `key` when its registrant already
   * uses the key. Registered with an add-on's token, it is the add-on's for delivery: it
   * carries the add-on's OAuth client id and signs with its oauthSecret (not `w.secret`), as
   * a declared webhook does. Copied into the row, not joined when read: the removed forms
   * (webhooks_removed) keep them, and an event matched with one after the add-on is
   * uninstalled (its client and installation gone) is still delivered as the add-on's.
   */
  /** The id the next registration takes (its secret is sealed for it before the insert). */
  async nextId(m: EntityManager): Promise<number> {
    const rows: Array<{ id: number }> = await m.query(`SELECT nextval(pg_get_serial_sequence('webhooks', 'id'))::int AS id`);
    return rows[0].id;
  }

  async insert(m: EntityManager, roomId: number, w: NewWebhook): Promise<StoredWebhook> {
    const addonClient = `FROM api_tokens t JOIN oauth_clients c ON c.installation_id = t.addon_installation_id
                          WHERE t.id = $11::int ORDER BY c.created_at, c.id LIMIT 1`;
    try {
      const rows: WebhookRow[] = await m.query(
        `INSERT INTO webhooks (room_id, event, url, pattern, name, authentication, delivery, key, secret, oauth_client_id,
                               created_by_user_id, created_by_token_id, id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce((SELECT c.secret ${addonClient}), $9), (SELECT c.id ${addonClient}),
                 $10, $11, $12) RETURNING ${COLUMNS}`,
        [roomId, w.event, sealedWebhookUrl(this.box, w.id, w.url), w.pattern, w.name, w.authentication, w.delivery, w.key, w.secret, w.userId, w.tokenId, w.id]);
      return this.stored(rows[0]);
    } catch (err) {
      if (isUniqueViolation(err, 'webhooks_registrant_key_uq')) throw webhookKeyTaken(w.key ?? '', roomId);
      throw err;
    }
  }

  /** Replaces what a webhook describes; its id, key, secret, registrant, enabled flag and health stay. */
  async replace(m: EntityManager, id: number, f: WebhookFields): Promise<StoredWebhook> {
    await m.query(
      'UPDATE webhooks SET event = $2, url = $3, pattern = $4, name = $5, authentication = $6, delivery = $7 WHERE id = $1',
      [id, f.event, await webhookUrlToWrite(m, this.box, id, f.url), f.pattern, f.name, f.authentication, f.delivery]);
    const rows: WebhookRow[] = await m.query(`${WITH_HEALTH} WHERE w.id = $1`, [id]);
    return this.stored(rows[0]);
  }

  /**
   * Disables an enabled webhook (a registration change: the trigger advances the
   * registrations' version); null when it is disabled already.
   */
  async disable(m: EntityManager, id: number, reason: string): Promise<StoredWebhook | null> {
    const result = await m.query(
      `UPDATE webhooks SET enabled = false, disabled_reason = $2, disabled_at = now() WHERE id = $1 AND enabled RETURNING ${COLUMNS}`,
      [id, reason]);
    const rows = rowsOf<WebhookRow>(result);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /**
   * The enabled webhooks of a room (or of a creator, in every room) that a user created,
   * with what the private-room rule reads of that creator now (see CreatorStanding).
   * Locked FOR UPDATE: the change that is narrowing access disables them next (`lock` false:
   * only counted, for what a change would do).
   */
  async creatorStandings(m: EntityManager, scope: { roomId?: number; userId?: number }, opts: { lock: boolean } = { lock: true }): Promise<CreatorStanding[]> {
    const rows: CreatorStandingRow[] = await m.query(
      `SELECT w.id, w.room_id, w.name, w.url, w.bridge_kind, r.privacy, u.id AS user_id, u.is_deleted, r.owner_user_id = u.id AS is_owner, ${CREATOR_STANDING}
         FROM webhooks w JOIN rooms r ON r.id = w.room_id JOIN users u ON u.id = w.created_by_user_id
        WHERE w.enabled AND ($1::int IS NULL OR w.room_id = $1::int) AND ($2::int IS NULL OR w.created_by_user_id = $2::int)
        ORDER BY w.id${opts.lock ? ' FOR UPDATE OF w' : ''}`,
      [scope.roomId ?? null, scope.userId ?? null]);
    return rows.map((r) => toCreatorStanding(r.url === undefined ? r : { ...r, url: openWebhookUrl(this.box, r.url, r.id) }));
  }

  /**
   * A webhook whose receiver replied, locked FOR SHARE until the reply's commit: a change
   * of access that disables it (an UPDATE of the row) waits for the reply, or the reply for
   * it, so the reply is judged by what was committed before it. With its creator's
   * standing, read after the lock (null: no user created it). Null when it is gone.
   */
  async lockForReply(m: EntityManager, id: number): Promise<{ roomId: number | null; enabled: boolean; creator: CreatorStanding | null } | null> {
    const locked: Array<{ room_id: number | null; enabled: boolean; created_by_user_id: number | null }> = await m.query(
      'SELECT room_id, enabled, created_by_user_id FROM webhooks WHERE id = $1 FOR SHARE', [id]);
    if (!locked[0]) return null;
    const { room_id: roomId, enabled, created_by_user_id: userId } = locked[0];
    if (userId === null || roomId === null) return { roomId, enabled, creator: null };
    // A second statement: its snapshot is taken after the lock was granted, so it sees the change that held it.
    const rows: CreatorStandingRow[] = await m.query(
      `SELECT $1::int AS id, r.id AS room_id, r.privacy, u.id AS user_id, u.is_deleted, r.owner_user_id = u.id AS is_owner, ${CREATOR_STANDING}
         FROM rooms r, users u WHERE r.id = $2 AND u.id = $3`, [id, roomId, userId]);
    return { roomId, enabled, creator: rows[0] ? toCreatorStanding(rows[0]) : null };
  }

  /** Enables a disabled webhook; false when it is enabled already (nothing changes, no new version). */
  async enable(m: EntityManager, id: number): Promise<boolean> {
    const result = await m.query(
      'UPDATE webhooks SET enabled = true, disabled_reason = NULL, disabled_at = NULL WHERE id = $1 AND NOT enabled RETURNING id', [id]);
    return rowsOf(result).length > 0;
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.query('DELETE FROM webhooks WHERE id = $1', [id]);
  }

  /** Deletes every webhook of a room (the room is going); answers their ids. */
  async deleteOfRoom(m: EntityManager, roomId: number): Promise<number[]> {
    const result = await m.query('DELETE FROM webhooks WHERE room_id = $1 RETURNING id', [roomId]);
    return rowsOf<{ id: number }>(result).map((r) => r.id).sort((a, b) => a - b);
  }
}

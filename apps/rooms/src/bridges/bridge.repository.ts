import { Injectable } from '@nestjs/common';
import { maskedBridgeUrl, openWebhookUrl, SecretBox, sealedWebhookUrl } from '@app/common';
import { BridgeKind, BridgeView, NO_WEBHOOK_HEALTH, WebhookEventName, WebhookHealthView } from '@app/contracts';
import { EntityManager } from 'typeorm';
import type { WebhookViewer } from '../rooms/room-access';
import { mayManageWebhookSql, webhookViewerParams } from '../rooms/room-access.sql';
import { BridgeFields, inboundKeyHash } from './bridge-rules';
import { HEALTH_COLUMNS, HEALTH_JOIN, healthOf, type HealthRow, webhookUrlToWrite } from '../webhooks/webhook.repository';

/**
 * A bridge as stored: a row of `webhooks` with `bridge_kind` set (see the migration
 * Bridges1766500000000). Its secrets stay sealed here: the Matrix token and the inbound
 * verification are opened only where they are used (delivery, the inbound endpoint). Its
 * URL, sealed in the row (secretPurpose.webhookUrl), is opened as read: it is shown masked.
 */
export interface StoredBridge {
  id: number;
  roomId: number;
  kind: BridgeKind;
  url: string;
  events: WebhookEventName[];
  pattern: string | null;
  name: string;
  created: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  health: WebhookHealthView;
  /** Who made it, as the webhook rule reads a webhook's creator (room-access.ts, mayManageWebhook). */
  userId: number | null;
  oauthClientId: string | null;
  matrixRoomId: string | null;
  /** Sealed (secretPurpose.bridgeToken(id)). */
  matrixAccessToken: string | null;
  inbound: {
    enabled: boolean;
    /** Whether an inbound URL was made (only its key's hash is kept). */
    hasKey: boolean;
    /** Sealed (secretPurpose.bridgeInbound(id, 'token')). */
    token: string | null;
    /** Sealed (secretPurpose.bridgeInbound(id, 'hmac_secret')). */
    hmacSecret: string | null;
  };
}

/** What a bridge's row holds besides its fields, as a change writes it (each secret sealed for the bridge's id). */
export interface BridgeSecrets {
  matrixAccessToken: string | null;
  inboundKeyHash: Buffer | null;
  inboundToken: string | null;
  inboundHmacSecret: string | null;
}

export interface NewBridge extends BridgeFields, BridgeSecrets {
  /** Taken from the webhooks' sequence first (WebhookRepository.nextId): the sealed secrets are bound to it. */
  id: number;
  /** The row's signing secret (NOT NULL, as a webhook's), sealed for secretPurpose.webhook(id). */
  secret: string;
  userId: number | null;
  tokenId: number | null;
}

interface BridgeRow extends HealthRow {
  id: number; room_id: number; bridge_kind: BridgeKind; url: string; bridge_events: WebhookEventName[]; pattern: string | null; name: string;
  created_at: Date; enabled: boolean; disabled_reason: string | null; disabled_at: Date | null;
  created_by_user_id: number | null; oauth_client_id: string | null;
  matrix_room_id: string | null; matrix_access_token: string | null;
  inbound_enabled: boolean; has_inbound_key: boolean; inbound_token: string | null; inbound_hmac_secret: string | null;
}

const WITH_HEALTH = `SELECT w.id, w.room_id, w.bridge_kind, w.url, w.bridge_events, w.pattern, w.name, w.created_at, w.enabled, w.disabled_reason,
    w.disabled_at, w.created_by_user_id, w.oauth_client_id, w.matrix_room_id, w.matrix_access_token, w.inbound_enabled,
    w.inbound_key_hash IS NOT NULL AS has_inbound_key, w.inbound_token, w.inbound_hmac_secret,
    ${HEALTH_COLUMNS} ${HEALTH_JOIN}`;

/** A bridge, not a HipChat webhook (the webhook API sees the others: webhook.repository.ts, HIPCHAT_WEBHOOK). */
const BRIDGE = (w: string) => `${w}.bridge_kind IS NOT NULL`;

const toStored = (r: BridgeRow): StoredBridge => ({
  id: r.id,
  roomId: r.room_id,
  kind: r.bridge_kind,
  url: r.url,
  events: r.bridge_events,
  pattern: r.pattern,
  name: r.name,
  created: r.created_at.toISOString(),
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: r.disabled_at?.toISOString() ?? null,
  health: healthOf(r),
  userId: r.created_by_user_id,
  oauthClientId: r.oauth_client_id,
  matrixRoomId: r.matrix_room_id,
  matrixAccessToken: r.matrix_access_token,
  inbound: { enabled: r.inbound_enabled, hasKey: r.has_inbound_key, token: r.inbound_token, hmacSecret: r.inbound_hmac_secret },
});

/**
 * The API's view: no secret, ever (the Matrix token, the inbound URL and its verification),
 * and the URL masked (a platform's incoming-webhook URL is itself a credential).
 */
export function toBridgeView(b: StoredBridge): BridgeView {
  return {
    id: b.id, roomId: b.roomId, kind: b.kind, name: b.name, url: maskedBridgeUrl(b.url), events: [...b.events], pattern: b.pattern, created: b.created,
    enabled: b.enabled, disabledReason: b.disabledReason, disabledAt: b.disabledAt, health: b.health ?? { ...NO_WEBHOOK_HEALTH },
    matrix: b.matrixRoomId !== null ? { roomId: b.matrixRoomId } : null,
    inbound: { enabled: b.inbound.enabled, verifiedBy: b.inbound.hmacSecret !== null ? 'hmac' : b.inbound.token !== null ? 'token' : null },
  };
}

/**
 * SQL of bridges: rows of `webhooks` with `bridge_kind` set. What they share with webhooks
 * (the room's lock of webhook changes, the id sequence, deletion, disabling) is
 * WebhookRepository's.
 */
@Injectable()
export class BridgeRepository {
  constructor(private readonly box: SecretBox) {}

  /** A row as the rooms service uses it: its URL opened. */
  private stored(r: BridgeRow): StoredBridge {
    return toStored({ ...r, url: openWebhookUrl(this.box, r.url, r.id) });
  }

  /** How many bridges the room has (whoever made them: the limit is the room's). */
  async countOfRoom(m: EntityManager, roomId: number): Promise<number> {
    const rows: Array<{ n: number }> = await m.query(`SELECT count(*)::int AS n FROM webhooks w WHERE w.room_id = $1 AND ${BRIDGE('w')}`, [roomId]);
    return rows[0].n;
  }

  /** The room's bridge with this id. */
  async findById(m: EntityManager, roomId: number, id: number): Promise<StoredBridge | null> {
    const rows: BridgeRow[] = await m.query(`${WITH_HEALTH} WHERE w.room_id = $1 AND w.id = $2 AND ${BRIDGE('w')}`, [roomId, id]);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /** Any bridge by id (the operator's commands). */
  async findAnyById(m: EntityManager, id: number): Promise<StoredBridge | null> {
    const rows: BridgeRow[] = await m.query(`${WITH_HEALTH} WHERE w.id = $1 AND ${BRIDGE('w')}`, [id]);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /**
   * The bridge whose inbound URL has this key (with its sealed verification secrets), or
   * null: found by the key's hash, whether or not inbound is enabled now (the caller
   * refuses a disabled one).
   */
  async findByInboundKey(m: EntityManager, key: string): Promise<StoredBridge | null> {
    const rows: BridgeRow[] = await m.query(`${WITH_HEALTH} WHERE w.inbound_key_hash = $1 AND ${BRIDGE('w')}`, [inboundKeyHash(key)]);
    return rows[0] ? this.stored(rows[0]) : null;
  }

  /**
   * Whether the room posted this text within the last `seconds` in a message that went out
   * through one of its bridges (enabled, forwarding that kind of message), other than one
   * from `from` itself (a person saying the same twice is not an echo): an inbound post that
   * is such an echo came round a ring of bridges. Read from history (messages_room_time_idx:
   * a minute of one room) rather than a table of fingerprints that every delivery would write.
   */
  async sentOutRecently(m: EntityManager, roomId: number, text: string, from: string, seconds: number): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM messages msg
        WHERE msg.room_id = $1 AND msg.created_at > now() - make_interval(secs => $4) AND btrim(msg.body) = btrim($2)
          AND msg.from_label IS DISTINCT FROM $3
          AND EXISTS (SELECT 1 FROM webhooks w WHERE w.room_id = $1 AND ${BRIDGE('w')} AND w.enabled
                        AND (CASE msg.type WHEN 'notification' THEN 'room_notification' ELSE 'room_message' END) = ANY (w.bridge_events))
        LIMIT 1`, [roomId, text, from, seconds]);
    return rows.length > 0;
  }

  /** A page of the room's bridges that the viewer may see (the webhook rule, as for webhooks), by id. */
  async listOfRoom(m: EntityManager, roomId: number, viewer: WebhookViewer, offset: number, limit: number): Promise<StoredBridge[]> {
    const rows: BridgeRow[] = await m.query(
      `${WITH_HEALTH} WHERE w.room_id = $1 AND ${BRIDGE('w')} AND ${mayManageWebhookSql('w', '$4', '$5', '$6')}
        ORDER BY w.id OFFSET $2 LIMIT $3`, [roomId, offset, limit, ...webhookViewerParams(viewer)]);
    return rows.map((r) => this.stored(r));
  }

  /** Every bridge (the room's only, when given), by id: the operator's list. */
  async listAll(m: EntityManager, roomId?: number): Promise<StoredBridge[]> {
    const rows: BridgeRow[] = await m.query(
      `${WITH_HEALTH} WHERE ${BRIDGE('w')} AND ($1::int IS NULL OR w.room_id = $1::int) ORDER BY w.id`, [roomId ?? null]);
    return rows.map((r) => this.stored(r));
  }

  /**
   * A new bridge: delivered in order (a conversation is read in order), its `event` the
   * first of its events. Made with an add-on's token, it is the add-on's, as a webhook is
   * (webhook.repository.ts, insert): its OAuth client and signing secret.
   */
  async insert(m: EntityManager, roomId: number, b: NewBridge): Promise<StoredBridge> {
    const addonClient = `FROM api_tokens t JOIN oauth_clients c ON c.installation_id = t.addon_installation_id
                          WHERE t.id = $11::int ORDER BY c.created_at, c.id LIMIT 1`;
    await m.query(
      `INSERT INTO webhooks (room_id, event, url, pattern, name, authentication, delivery, secret, oauth_client_id,
                             created_by_user_id, created_by_token_id, id, bridge_kind, bridge_events, matrix_room_id, matrix_access_token,
                             inbound_enabled, inbound_key_hash, inbound_token, inbound_hmac_secret)
       VALUES ($1, $2, $3, $4, $5, 'none', 'ordered', coalesce((SELECT c.secret ${addonClient}), $6), (SELECT c.id ${addonClient}),
               $7, $11, $8, $9, $10, $12, $13, $14, $15, $16, $17)`,
      [roomId, b.events[0], sealedWebhookUrl(this.box, b.id, b.url), b.pattern, b.name, b.secret, b.userId, b.id, b.kind, b.events, b.tokenId, b.matrixRoomId, b.matrixAccessToken,
        b.inboundEnabled, b.inboundKeyHash, b.inboundToken, b.inboundHmacSecret]);
    return (await this.findById(m, roomId, b.id))!;
  }

  /**
   * Replaces what a bridge describes and its secrets (the caller passes the stored ones it
   * keeps); its id, kind, creator, signing secret, enabled flag and health stay. A change of
   * `webhooks`: the trigger versions it for the dispatchers.
   */
  async replace(m: EntityManager, roomId: number, id: number, f: BridgeFields, s: BridgeSecrets): Promise<StoredBridge> {
    await m.query(
      `UPDATE webhooks SET event = $2, url = $3, pattern = $4, name = $5, bridge_events = $6, matrix_room_id = $7, matrix_access_token = $8,
              inbound_enabled = $9, inbound_key_hash = $10, inbound_token = $11, inbound_hmac_secret = $12
        WHERE id = $1 AND ${BRIDGE('webhooks')}`,
      [id, f.events[0], await webhookUrlToWrite(m, this.box, id, f.url), f.pattern, f.name, f.events, f.matrixRoomId, s.matrixAccessToken, f.inboundEnabled, s.inboundKeyHash,
        s.inboundToken, s.inboundHmacSecret]);
    return (await this.findById(m, roomId, id))!;
  }

  /** The stored hash of a bridge's inbound key (kept by a PUT that does not rotate it). */
  async inboundKeyHashOf(m: EntityManager, id: number): Promise<Buffer | null> {
    const rows: Array<{ h: Buffer | null }> = await m.query('SELECT inbound_key_hash AS h FROM webhooks WHERE id = $1', [id]);
    return rows[0]?.h ?? null;
  }
}

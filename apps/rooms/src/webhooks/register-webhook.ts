import { Inject, Injectable } from '@nestjs/common';
import { SecretBox, sealedWebhookUrl, secretPurpose } from '@app/common';
import { Actor, RoomRef, WebhookRegistrationsChangedV1, WebhookSpec } from '@app/contracts';
import { RoomsConfig } from '../config';
import { Tx } from '../outbox/unit-of-work';
import { RoomRepository } from '../rooms/room.repository';
import { StoredWebhook, WebhookRepository } from './webhook.repository';
import { assertPatternApplies, assertUnderLimit, assertUrlReachable, fieldsOf, newWebhookSecret, Registrant, registrantOf } from './webhook-rules';
import { ROOMS_CONFIG } from '../shared/infrastructure.module';
import { AuditRepository } from '../audit/audit.repository';
import { webhookAuditUrl, webhookSubject } from '../audit/audit-line';

/** What a registration through the REST API names. */
export interface Registration extends WebhookSpec {
  room: RoomRef;
  actor: Actor;
}

/**
 * What creating a webhook (POST) and putting one by key (PUT) share: the same checks,
 * under the room's webhook lock, and the same insert of a new registration.
 */
@Injectable()
export class RegisterWebhook {
  constructor(
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
    private readonly audit: AuditRepository,
    private readonly box: SecretBox,
  ) {}

  /**
   * The room and the registrant, once the request is checked and the room's webhook
   * changes are serialized (until the commit). The room is read FOR SHARE: it cannot be
   * deleted under the registration (its deletion then lists this webhook).
   */
  async open({ manager: m }: Tx, r: Registration): Promise<Registrant> {
    const { room, addOn } = await this.rooms.findWithStanding(m, r.room, r.actor, 'share');
    assertPatternApplies(r);
    assertUrlReachable(r.url, this.config.WEBHOOK_ALLOWED_NETWORKS);
    await this.webhooks.lockRoom(m, room.id);
    return registrantOf(room.id, r.actor, addOn);
  }

  /**
   * A new registration within the registrant's limit; its secret is answered this once,
   * unless an add-on's token registered it: it signs with the add-on's oauthSecret, which
   * the add-on already holds, so no secret is answered.
   */
  async insert(tx: Tx, registrant: Registrant, r: Registration, key: string | null): Promise<{ webhook: StoredWebhook; secret?: string }> {
    assertUnderLimit(await this.webhooks.countOf(tx.manager, registrant), this.config.WEBHOOKS_PER_ROOM_MAX);
    const secret = newWebhookSecret();
    const id = await this.webhooks.nextId(tx.manager);
    const webhook = await this.webhooks.insert(tx.manager, registrant.roomId, {
      ...fieldsOf(r), id, key, secret: this.box.seal(secret, secretPurpose.webhook(id)), userId: registrant.userId, tokenId: r.actor.tokenId ?? null,
    });
    tx.emit(WebhookRegistrationsChangedV1, { roomId: registrant.roomId, webhookIds: [webhook.id] });
    await this.audit.append(tx.manager, r.actor, { action: 'webhook.created', target: webhookSubject(webhook), details: { roomId: registrant.roomId, event: webhook.event, url: webhookAuditUrl(webhook.url) } });
    return webhook.oauthClientId === null ? { webhook, secret } : { webhook };
  }

  /**
   * How a command that answers a new secret keeps its reply for a redelivery: the secret
   * sealed as the webhook's own (the command log holds no secret in clear), opened again
   * when the reply is answered again. So is the webhook's URL (webhookReplyStorage): the
   * first answer gave it whole to its creator, and so does a redelivery.
   */
  replyStorage<R extends { webhook: { id: number; url: string }; secret?: string }>(): { storedReply: (r: R) => unknown; fromStored: (s: unknown) => R } {
    const url = webhookReplyStorage<R>(this.box);
    return {
      storedReply: (r) => url.storedReply(r.secret === undefined ? r : { ...r, secret: this.box.seal(r.secret, secretPurpose.webhook(r.webhook.id)) }),
      fromStored: (s) => {
        const r = url.fromStored(s);
        return r.secret === undefined ? r : { ...r, secret: this.box.reveal(r.secret, secretPurpose.webhook(r.webhook.id)) };
      },
    };
  }
}

/**
 * How a command whose reply shows a webhook (create, put, enable) keeps it for a
 * redelivery: its URL sealed for the webhook (secretPurpose.webhookUrl; the command log, kept
 * a day, holds no URL in clear), opened again when the reply is answered again, so that a
 * redelivery answers what the first answer did (whole to the creator, masked to others).
 */
export function webhookReplyStorage<R extends { webhook: { id: number; url: string } }>(box: SecretBox): { storedReply: (r: R) => R; fromStored: (s: unknown) => R } {
  return {
    storedReply: (r) => ({ ...r, webhook: { ...r.webhook, url: sealedWebhookUrl(box, r.webhook.id, r.webhook.url) } }),
    fromStored: (s) => {
      const r = s as R;
      return { ...r, webhook: { ...r.webhook, url: box.reveal(r.webhook.url, secretPurpose.webhookUrl(r.webhook.id)) } };
    },
  };
}

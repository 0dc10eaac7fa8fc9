import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { CreateBridgeV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { bridgeSubject } from '../../audit/audit-line';
import { AuditRepository } from '../../audit/audit.repository';
import { RoomsConfig } from '../../config';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RoomRepository } from '../../rooms/room.repository';
import { ROOMS_CONFIG } from '../../shared/infrastructure.module';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { assertUrlReachable, newWebhookSecret } from '../../webhooks/webhook-rules';
import { BridgeRepository, toBridgeView } from '../bridge.repository';
import { assertBridgeSpec, assertUnderBridgeLimit, bridgeFieldsOf, inboundKeyHash, newInboundKey } from '../bridge-rules';
import { BridgeSecrets } from '../bridge-secrets';

/**
 * Bridges a room to a chat platform: a webhook row that posts in the platform's format.
 * Its inbound URL's key, when inbound is enabled, is answered this once (only its hash is kept).
 */
@Injectable()
export class CreateBridge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    private readonly bridges: BridgeRepository,
    private readonly secrets: BridgeSecrets,
    private readonly audit: AuditRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
  ) {}

  execute(cmd: RequestOf<typeof CreateBridgeV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateBridgeV1>> {
    return this.uow.apply(meta, async (tx) => {
      const m = tx.manager;
      // Read FOR SHARE: the room cannot be deleted under the bridge (its deletion then lists it, as a webhook).
      const { room } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share');
      assertBridgeSpec(cmd, true);
      // The SSRF policy of webhooks: a bridge is delivered by the same guarded sender.
      assertUrlReachable(cmd.url, this.config.WEBHOOK_ALLOWED_NETWORKS);
      await this.webhooks.lockRoom(m, room.id);
      assertUnderBridgeLimit(await this.bridges.countOfRoom(m, room.id));

      const fields = bridgeFieldsOf(cmd);
      const id = await this.webhooks.nextId(m);
      const inboundKey = fields.inboundEnabled ? newInboundKey() : undefined;
      const bridge = await this.bridges.insert(m, room.id, {
        ...fields, id, secret: this.secrets.signing(id, newWebhookSecret()), userId: cmd.actor.userId ?? null, tokenId: cmd.actor.tokenId ?? null,
        matrixAccessToken: cmd.matrix?.access_token !== undefined ? this.secrets.matrixToken(id, cmd.matrix.access_token) : null,
        inboundKeyHash: inboundKey !== undefined ? inboundKeyHash(inboundKey) : null,
        inboundToken: cmd.inbound?.token !== undefined ? this.secrets.inbound(id, 'token', cmd.inbound.token) : null,
        inboundHmacSecret: cmd.inbound?.hmac_secret !== undefined ? this.secrets.inbound(id, 'hmac_secret', cmd.inbound.hmac_secret) : null,
      });
      tx.emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [bridge.id] });
      await this.audit.append(m, cmd.actor, {
        action: 'bridge.created', target: bridgeSubject(bridge),
        details: { roomId: room.id, kind: bridge.kind, events: bridge.events, inbound: bridge.inbound.enabled },
      });
      return { bridge: toBridgeView(bridge), ...(inboundKey !== undefined ? { inboundKey } : {}) };
    }, this.secrets.replyStorage());
  }
}

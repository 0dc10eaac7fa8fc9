import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { PutBridgeV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { bridgeSubject } from '../../audit/audit-line';
import { AuditRepository } from '../../audit/audit.repository';
import { RoomsConfig } from '../../config';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { mayManageWebhook } from '../../rooms/room-access';
import { RoomRepository } from '../../rooms/room.repository';
import { ROOMS_CONFIG } from '../../shared/infrastructure.module';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { assertUrlReachable } from '../../webhooks/webhook-rules';
import { BridgeRepository, toBridgeView } from '../bridge.repository';
import { assertBridgeSpec, assertSameKind, bridgeFieldsOf, bridgeNotFound, inboundKeyHash, newInboundKey } from '../bridge-rules';
import { BridgeSecrets } from '../bridge-secrets';
import { inboundKeyPlan } from './inbound-key-plan';

/**
 * Replaces what a bridge describes (same id, kind, creator, health). A PUT states the whole
 * bridge, but its secrets: the Matrix token and the inbound token or HMAC secret left out
 * are kept. A new inbound URL is made when asked (`inbound.rotate`) or when inbound is
 * enabled on a bridge that never had one, and answered this once.
 */
@Injectable()
export class PutBridge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    private readonly bridges: BridgeRepository,
    private readonly secrets: BridgeSecrets,
    private readonly audit: AuditRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
  ) {}

  execute(cmd: RequestOf<typeof PutBridgeV1>, meta: CommandMeta): Promise<ReplyOf<typeof PutBridgeV1>> {
    return this.uow.apply(meta, async (tx) => {
      const m = tx.manager;
      const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share', () => bridgeNotFound(cmd.id));
      await this.webhooks.lockRoom(m, room.id);
      const existing = await this.bridges.findById(m, room.id, cmd.id);
      // Another user's or add-on's bridge is not there for whoever may not manage it (the webhook rule).
      if (!existing || !mayManageWebhook(viewer, existing)) throw bridgeNotFound(cmd.id);
      assertSameKind(existing.kind, cmd.kind);
      assertBridgeSpec(cmd, false);
      assertUrlReachable(cmd.url, this.config.WEBHOOK_ALLOWED_NETWORKS);

      const fields = bridgeFieldsOf(cmd);
      const plan = inboundKeyPlan(existing.inbound, fields.inboundEnabled, cmd.inbound?.rotate === true);
      const inboundKey = plan === 'none' ? undefined : newInboundKey();
      const id = existing.id;
      const bridge = await this.bridges.replace(m, room.id, id, fields, {
        matrixAccessToken: cmd.matrix?.access_token !== undefined ? this.secrets.matrixToken(id, cmd.matrix.access_token) : existing.matrixAccessToken,
        inboundKeyHash: inboundKey !== undefined ? inboundKeyHash(inboundKey) : await this.bridges.inboundKeyHashOf(m, id),
        inboundToken: cmd.inbound?.token !== undefined ? this.secrets.inbound(id, 'token', cmd.inbound.token) : existing.inbound.token,
        inboundHmacSecret: cmd.inbound?.hmac_secret !== undefined ? this.secrets.inbound(id, 'hmac_secret', cmd.inbound.hmac_secret) : existing.inbound.hmacSecret,
      });
      tx.emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [id] });
      // Another receiver: the one before held the room's signed file links, which die.
      if (existing.url !== bridge.url) await this.rooms.revokeFileLinks(m, { roomIds: [room.id] });
      await this.audit.append(m, cmd.actor, {
        action: 'bridge.changed', target: bridgeSubject(bridge),
        details: { roomId: room.id, kind: bridge.kind, events: bridge.events, inbound: bridge.inbound.enabled },
      });
      if (plan === 'rotated') await this.audit.append(m, cmd.actor, { action: 'bridge.inbound_rotated', target: bridgeSubject(bridge), details: { roomId: room.id } });
      return { bridge: toBridgeView(bridge), ...(inboundKey !== undefined ? { inboundKey } : {}) };
    }, this.secrets.replyStorage());
  }
}

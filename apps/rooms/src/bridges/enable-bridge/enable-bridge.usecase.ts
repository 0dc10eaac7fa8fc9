import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { EnableBridgeV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { bridgeSubject } from '../../audit/audit-line';
import { AuditRepository } from '../../audit/audit.repository';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { mayManageWebhook } from '../../rooms/room-access';
import { RoomRepository } from '../../rooms/room.repository';
import { WebhookAccessSteps } from '../../webhooks/lost-access/webhook-access-steps';
import { WebhookHealthRepository } from '../../webhooks/webhook-health.repository';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { BridgeRepository, toBridgeView } from '../bridge.repository';
import { bridgeNotFound } from '../bridge-rules';

/**
 * Enables a bridge again and resets its health, as EnableWebhook does a webhook's (a bridge
 * is a webhook row: the same health, registrations and lost-access check). Enabling is a
 * registration change, in force on every dispatcher replica when this answers; enabling an
 * enabled one only resets its health. Nothing missed while it was disabled is sent.
 */
@Injectable()
export class EnableBridge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    private readonly bridges: BridgeRepository,
    private readonly health: WebhookHealthRepository,
    private readonly audit: AuditRepository,
    private readonly steps: WebhookAccessSteps,
  ) {}

  execute(cmd: RequestOf<typeof EnableBridgeV1>, meta: CommandMeta): Promise<ReplyOf<typeof EnableBridgeV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'none', () => bridgeNotFound(cmd.id));
      const bridge = await this.bridges.findById(m, room.id, cmd.id);
      if (!bridge || !mayManageWebhook(viewer, bridge)) throw bridgeNotFound(cmd.id);
      if (!bridge.enabled) await this.steps.assertCreatorMayRead(m, room.id, bridge.id);
      // In the order a health report locks them (as EnableWebhook): the health row, then the row's update.
      await this.health.reset(m, bridge.id);
      if (await this.webhooks.enable(m, bridge.id)) emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [bridge.id] });
      if (!bridge.enabled) {
        await this.audit.append(m, cmd.actor, {
          action: 'bridge.enabled', target: bridgeSubject(bridge), details: { roomId: room.id, kind: bridge.kind, wasDisabledFor: bridge.disabledReason },
        });
      }
      const now = await this.bridges.findById(m, room.id, bridge.id);
      if (!now) throw bridgeNotFound(cmd.id);
      return { bridge: toBridgeView(now) };
    });
  }
}

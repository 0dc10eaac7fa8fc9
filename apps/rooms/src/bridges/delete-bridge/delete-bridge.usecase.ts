import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { DeleteBridgeV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { bridgeSubject } from '../../audit/audit-line';
import { AuditRepository } from '../../audit/audit.repository';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { mayManageWebhook } from '../../rooms/room-access';
import { RoomRepository } from '../../rooms/room.repository';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { BridgeRepository } from '../bridge.repository';
import { bridgeNotFound } from '../bridge-rules';

/** Deletes a bridge of a room (its removed form stays versioned for the events caused before, as a webhook's). */
@Injectable()
export class DeleteBridge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    private readonly bridges: BridgeRepository,
    private readonly audit: AuditRepository,
  ) {}

  execute(cmd: RequestOf<typeof DeleteBridgeV1>, meta: CommandMeta): Promise<ReplyOf<typeof DeleteBridgeV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share', () => bridgeNotFound(cmd.id));
      await this.webhooks.lockRoom(m, room.id);
      const bridge = await this.bridges.findById(m, room.id, cmd.id);
      if (!bridge || !mayManageWebhook(viewer, bridge)) throw bridgeNotFound(cmd.id);
      await this.webhooks.delete(m, bridge.id);
      await this.audit.append(m, cmd.actor, { action: 'bridge.deleted', target: bridgeSubject(bridge), details: { roomId: room.id, kind: bridge.kind } });
      emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [bridge.id] });
      // Its receiver fetched the room's files by signed links: those handed out until now die.
      await this.rooms.revokeFileLinks(m, { roomIds: [room.id] });
      return {};
    });
  }
}

import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { DeleteWebhookV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { mayManageWebhook } from '../../rooms/room-access';
import { RoomRepository } from '../../rooms/room.repository';
import { WebhookRepository } from '../webhook.repository';
import { assertNotAddOns, registrantOf, webhookNotFound } from '../webhook-rules';
import { AuditRepository } from '../../audit/audit.repository';
import { webhookAuditUrl, webhookSubject } from '../../audit/audit-line';

/** Deletes a webhook of a room; an add-on's are refused (they go with the add-on). */
@Injectable()
export class DeleteWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    private readonly audit: AuditRepository,
  ) {}

  execute(cmd: RequestOf<typeof DeleteWebhookV1>, meta: CommandMeta): Promise<ReplyOf<typeof DeleteWebhookV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      // A private room's webhooks are not there for whoever may not see the room (not_found).
      const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share', () => webhookNotFound(cmd.webhook));
      await this.webhooks.lockRoom(m, room.id);
      const webhook = await this.webhooks.findByRef(m, registrantOf(room.id, cmd.actor, viewer.addOn), cmd.webhook);
      // Another user's or add-on's webhook is not there for whoever may not manage it (not_found, as in a private room).
      if (!mayManageWebhook(viewer, webhook)) throw webhookNotFound(cmd.webhook);
      assertNotAddOns(webhook, cmd.webhook);
      await this.webhooks.delete(m, webhook.id);
      await this.audit.append(m, cmd.actor, { action: 'webhook.deleted', target: webhookSubject(webhook), details: { roomId: room.id, event: webhook.event, url: webhookAuditUrl(webhook.url) } });
      emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [webhook.id] });
      // Its receiver fetched the room's files by signed links: those handed out until now die.
      await this.rooms.revokeFileLinks(m, { roomIds: [room.id] });
      return {};
    });
  }
}

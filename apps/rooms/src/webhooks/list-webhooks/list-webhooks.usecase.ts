import { Injectable } from '@nestjs/common';
import { ListWebhooksV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { isWebhookCreator } from '../../rooms/room-access';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';

/**
 * A page of a room's webhooks (add-ons installed in the room included): all of them to its
 * owner and group admins, to others those the webhook rule lets them see (room-access.ts, mayManageWebhook).
 */
@Injectable()
export class ListWebhooks {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
  ) {}

  async execute(cmd: RequestOf<typeof ListWebhooksV1>): Promise<ReplyOf<typeof ListWebhooksV1>> {
    const m = this.db.manager;
    const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor);
    const webhooks = await this.webhooks.listOfRoom(m, room.id, viewer, cmd.startIndex, cmd.limit);
    return { webhooks: webhooks.map((w) => toWebhookView(w, !isWebhookCreator(viewer, w))) };
  }
}

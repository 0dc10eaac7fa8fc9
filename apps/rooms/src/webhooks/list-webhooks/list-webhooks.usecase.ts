import { Injectable } from '@nestjs/common';
import { ListWebhooksV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';

/** A page of a room's webhooks, whoever registered them (add-ons installed in the room included). */
@Injectable()
export class ListWebhooks {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
  ) {}

  async execute(cmd: RequestOf<typeof ListWebhooksV1>): Promise<ReplyOf<typeof ListWebhooksV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findForActor(m, cmd.room, cmd.actor);
    const webhooks = await this.webhooks.listOfRoom(m, room.id, cmd.startIndex, cmd.limit);
    return { webhooks: webhooks.map(toWebhookView) };
  }
}

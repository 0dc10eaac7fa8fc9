import { Injectable } from '@nestjs/common';
import { GetWebhookV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import { registrantOf } from '../webhook-rules';

/** One webhook of a room, by id (any of the room's) or by key (the caller's own, else an add-on's). */
@Injectable()
export class GetWebhook {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
  ) {}

  async execute(cmd: RequestOf<typeof GetWebhookV1>): Promise<ReplyOf<typeof GetWebhookV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findForActor(m, cmd.room, cmd.actor);
    const webhook = await this.webhooks.findByRef(m, registrantOf(room.id, cmd.actor), cmd.webhook);
    return { webhook: toWebhookView(webhook) };
  }
}

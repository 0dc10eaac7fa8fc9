import { Injectable } from '@nestjs/common';
import { GetWebhookV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import { registrantOf, webhookNotFound } from '../webhook-rules';

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
    const webhook = 'id' in cmd.webhook
      ? await this.webhooks.findById(m, room.id, cmd.webhook.id)
      : await this.webhooks.findByKey(m, registrantOf(room.id, cmd.actor), cmd.webhook.key);
    if (!webhook) throw webhookNotFound(cmd.webhook);
    return { webhook: toWebhookView(webhook) };
  }
}

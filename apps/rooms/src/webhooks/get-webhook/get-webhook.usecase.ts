import { Injectable } from '@nestjs/common';
import { GetWebhookV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { isWebhookCreator } from '../../rooms/room-access';
import { readableWebhook } from '../readable-webhook';
import { toWebhookView, WebhookRepository } from '../webhook.repository';

/**
 * One webhook of a room, by id (any of the room's) or by key (the caller's own, else an
 * add-on's): each request of the webhook's delivery log asks this first.
 */
@Injectable()
export class GetWebhook {
  constructor(private readonly db: DataSource, private readonly webhooks: WebhookRepository) {}

  async execute(cmd: RequestOf<typeof GetWebhookV1>): Promise<ReplyOf<typeof GetWebhookV1>> {
    const { webhook, viewer } = await readableWebhook(this.webhooks, this.db.manager, cmd.room, cmd.actor, cmd.webhook);
    return { webhook: toWebhookView(webhook, !isWebhookCreator(viewer, webhook)) };
  }
}

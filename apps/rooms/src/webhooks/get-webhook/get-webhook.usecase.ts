import { Injectable } from '@nestjs/common';
import { GetWebhookV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { assertActorMayUse } from '../../rooms/room-access';
import { roomNotFound } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import { registrantUserOf, webhookNotFound } from '../webhook-rules';

/**
 * One webhook of a room, by id (any of the room's) or by key (the caller's own, else an
 * add-on's). Room and webhook are read in one statement (each request of the webhook's
 * delivery log asks this first); the answers keep their order: no room, a room the actor may
 * not use, no such webhook in it.
 */
@Injectable()
export class GetWebhook {
  constructor(private readonly db: DataSource, private readonly webhooks: WebhookRepository) {}

  async execute(cmd: RequestOf<typeof GetWebhookV1>): Promise<ReplyOf<typeof GetWebhookV1>> {
    const { room, webhook } = await this.webhooks.findWithRoom(this.db.manager, cmd.room, registrantUserOf(cmd.actor), cmd.webhook);
    if (!room) throw roomNotFound(cmd.room);
    assertActorMayUse(cmd.actor, room);
    if (!webhook) throw webhookNotFound(cmd.webhook);
    return { webhook: toWebhookView(webhook) };
  }
}

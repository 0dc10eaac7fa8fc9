import { Injectable } from '@nestjs/common';
import { ListAllWebhooksV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';

/** The operator's list (`cli webhook list`): every webhook with its health, or one room's, or the one with an id. */
@Injectable()
export class ListAllWebhooks {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
  ) {}

  async execute(cmd: RequestOf<typeof ListAllWebhooksV1>): Promise<ReplyOf<typeof ListAllWebhooksV1>> {
    const m = this.db.manager;
    const roomId = cmd.room ? (await this.rooms.findByRef(m, cmd.room)).id : undefined;
    return { webhooks: (await this.webhooks.listWithHealth(m, { roomId, id: cmd.id })).map((w) => toWebhookView(w)) };
  }
}

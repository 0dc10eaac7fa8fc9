import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { PutWebhookV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RoomRepository } from '../../rooms/room.repository';
import { RegisterWebhook } from '../register-webhook';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import { assertNotAddOns, fieldsOf } from '../webhook-rules';

/**
 * Creates the webhook with this key, or replaces what it describes (same id, same secret):
 * a PUT states the whole webhook, so absent optional fields go back to their defaults.
 */
@Injectable()
export class PutWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly register: RegisterWebhook,
    private readonly webhooks: WebhookRepository,
    private readonly rooms: RoomRepository,
  ) {}

  execute(cmd: RequestOf<typeof PutWebhookV1>, meta: CommandMeta): Promise<ReplyOf<typeof PutWebhookV1>> {
    return this.uow.apply(meta, async (tx) => {
      const registrant = await this.register.open(tx, cmd);
      const existing = await this.webhooks.findByKey(tx.manager, registrant, cmd.key);
      if (existing) {
        assertNotAddOns(existing, { key: cmd.key });
        const webhook = await this.webhooks.replace(tx.manager, existing.id, fieldsOf(cmd));
        tx.emit(WebhookRegistrationsChangedV1, { roomId: registrant.roomId, webhookIds: [webhook.id] });
        // Another receiver: the one before held the room's signed file links, which die.
        if (existing.url !== webhook.url) await this.rooms.revokeFileLinks(tx.manager, { roomIds: [registrant.roomId] });
        return { webhook: toWebhookView(webhook), created: false };
      }
      const { webhook, secret } = await this.register.insert(tx, registrant, cmd, cmd.key);
      return { webhook: toWebhookView(webhook), created: true, ...(secret !== undefined ? { secret } : {}) };
    }, this.register.replyStorage());
  }
}

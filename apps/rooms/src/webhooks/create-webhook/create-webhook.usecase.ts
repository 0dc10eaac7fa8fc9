import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { CreateWebhookV1, ReplyOf, RequestOf } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RegisterWebhook } from '../register-webhook';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import { webhookKeyTaken } from '../webhook-rules';

/** Registers a webhook of a room for the token's user; its secret is answered this once. */
@Injectable()
export class CreateWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly register: RegisterWebhook,
    private readonly webhooks: WebhookRepository,
  ) {}

  execute(cmd: RequestOf<typeof CreateWebhookV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateWebhookV1>> {
    return this.uow.apply(meta, async (tx) => {
      const registrant = await this.register.open(tx, cmd);
      if (cmd.key !== undefined) {
        const same = await this.webhooks.findByKey(tx.manager, registrant, cmd.key);
        if (same) throw webhookKeyTaken(cmd.key, registrant.roomId, same.installationId !== null);
      }
      const { webhook, secret } = await this.register.insert(tx, registrant, cmd, cmd.key ?? null);
      return { webhook: toWebhookView(webhook), ...(secret !== undefined ? { secret } : {}) };
    }, this.register.replyStorage());
  }
}

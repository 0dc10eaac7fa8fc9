import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { PutWebhookV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { ROOMS_CONFIG, RoomsConfig } from '../../config';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import { assertNotAddOns, assertPatternApplies, assertUrlReachable, assertUnderLimit, fieldsOf, newWebhookSecret, registrantOf } from '../webhook-rules';

/**
 * Creates the webhook with this key, or replaces what it describes (same id, same secret):
 * a PUT states the whole webhook, so absent optional fields go back to their defaults.
 */
@Injectable()
export class PutWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
  ) {}

  execute(cmd: RequestOf<typeof PutWebhookV1>, meta: CommandMeta): Promise<ReplyOf<typeof PutWebhookV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const room = await this.rooms.findForActor(m, cmd.room, cmd.actor, 'share');
      assertPatternApplies(cmd);
      assertUrlReachable(cmd.url, this.config.WEBHOOK_ALLOWED_NETWORKS);
      await this.webhooks.lockRoom(m, room.id);
      const registrant = registrantOf(room.id, cmd.actor);
      const existing = await this.webhooks.findByKey(m, registrant, cmd.key);
      if (existing) {
        assertNotAddOns(existing);
        const webhook = await this.webhooks.replace(m, existing.id, fieldsOf(cmd));
        emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [webhook.id] });
        return { webhook: toWebhookView(webhook), created: false };
      }
      assertUnderLimit(await this.webhooks.countOf(m, registrant), this.config.WEBHOOKS_PER_ROOM_MAX);
      const secret = newWebhookSecret();
      const webhook = await this.webhooks.insert(m, room.id, {
        ...fieldsOf(cmd), key: cmd.key, secret, userId: registrant.userId, tokenId: cmd.actor.tokenId ?? null,
      });
      emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [webhook.id] });
      return { webhook: toWebhookView(webhook), created: true, secret };
    });
  }
}

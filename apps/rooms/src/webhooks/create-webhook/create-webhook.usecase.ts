import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { CreateWebhookV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { ROOMS_CONFIG, RoomsConfig } from '../../config';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RoomRepository } from '../../rooms/room.repository';
import { toWebhookView, WebhookRepository } from '../webhook.repository';
import {
  assertPatternApplies, assertUrlReachable, assertUnderLimit, fieldsOf, newWebhookSecret, registrantOf, webhookKeyTaken,
} from '../webhook-rules';

/** Registers a webhook of a room for the token's user; its secret is answered this once. */
@Injectable()
export class CreateWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly webhooks: WebhookRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
  ) {}

  execute(cmd: RequestOf<typeof CreateWebhookV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateWebhookV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      // Shared: the room cannot be deleted under the registration (its deletion then lists this webhook).
      const room = await this.rooms.findForActor(m, cmd.room, cmd.actor, 'share');
      assertPatternApplies(cmd);
      assertUrlReachable(cmd.url, this.config.WEBHOOK_ALLOWED_NETWORKS);
      await this.webhooks.lockRoom(m, room.id);
      const registrant = registrantOf(room.id, cmd.actor);
      if (cmd.key !== undefined) {
        const same = await this.webhooks.findByKey(m, registrant, cmd.key);
        if (same) throw webhookKeyTaken(cmd.key, room.id, same.installationId !== null);
      }
      assertUnderLimit(await this.webhooks.countOf(m, registrant), this.config.WEBHOOKS_PER_ROOM_MAX);
      const secret = newWebhookSecret();
      const webhook = await this.webhooks.insert(m, room.id, {
        ...fieldsOf(cmd), key: cmd.key ?? null, secret, userId: registrant.userId, tokenId: cmd.actor.tokenId ?? null,
      });
      emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds: [webhook.id] });
      return { webhook: toWebhookView(webhook), secret };
    });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import { commandFailure, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { EntityManager } from 'typeorm';
import type { Tx } from '../../outbox/unit-of-work';
import { AuditRepository } from '../../audit/audit.repository';
import { bridgeSubject, webhookSubject } from '../../audit/audit-line';
import { RoomRepository } from '../../rooms/room.repository';
import { WebhookRepository } from '../webhook.repository';
import { CREATOR_LOST_ACCESS, creatorLostAccess, replyRefusal } from './lost-access-rules';

/** Whose access narrowed: everyone's in a room (it became private), one user's in a room, or one user's everywhere. */
export type AccessLoss = { roomId: number; userId?: number } | { userId: number };

/**
 * What losing access to a room does to webhooks, as steps the rooms' and users' use cases
 * run in their own transaction (not a call into a webhooks use case).
 */
@Injectable()
export class WebhookAccessSteps {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly audit: AuditRepository,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly rooms: RoomRepository,
  ) {}

  /**
   * Run after the change, in its transaction: every enabled webhook in scope whose creator
   * may no longer read its room is disabled (`creator_lost_access`). Disabling is a
   * registration change (the trigger advances the registrations' version), so no event
   * committed after this transaction reaches it, on any dispatcher replica. Only someone
   * who may read the room can enable it again (EnableWebhook reads it as the API does).
   * Their receivers held the rooms' signed file links: those issued until now die.
   */
  async disableOfLostAccess({ manager: m, emit }: Pick<Tx, 'manager' | 'emit'>, loss: AccessLoss): Promise<number[]> {
    const byRoom = new Map<number, number[]>();
    for (const s of await this.webhooks.creatorStandings(m, loss)) {
      if (!creatorLostAccess(s) || !(await this.webhooks.disable(m, s.webhookId, CREATOR_LOST_ACCESS))) continue;
      byRoom.set(s.roomId, [...(byRoom.get(s.roomId) ?? []), s.webhookId]);
      this.logger.info({ webhookId: s.webhookId, roomId: s.roomId, userId: s.creator.id, reason: CREATOR_LOST_ACCESS }, 'webhook disabled');
      const details = { roomId: s.roomId, reason: CREATOR_LOST_ACCESS, creator: { id: s.creator.id } };
      // A bridge is disabled as a webhook is, and named as a bridge (never by its URL: see bridgeSubject).
      const bridgeKind = s.webhook?.bridgeKind ?? null;
      await this.audit.append(m, undefined, bridgeKind
        ? { action: 'bridge.disabled', target: bridgeSubject({ id: s.webhookId, name: s.webhook?.name, kind: bridgeKind }), details }
        : { action: 'webhook.disabled', target: webhookSubject({ id: s.webhookId, name: s.webhook?.name, url: s.webhook?.url ?? '' }), details });
    }
    for (const [roomId, webhookIds] of byRoom) emit(WebhookRegistrationsChangedV1, { roomId, webhookIds });
    if (byRoom.size > 0) await this.rooms.revokeFileLinks(m, { roomIds: [...byRoom.keys()] });
    return [...byRoom.values()].flat();
  }

  /**
   * A webhook whose creator may not read its room now is not enabled again, by anyone (the
   * room's owner, a group admin, the CLI): their server would get the room's events. Give
   * the creator access first (or delete the webhook). Throws before any write.
   */
  async assertCreatorMayRead(m: EntityManager, roomId: number, webhookId: number): Promise<void> {
    const found = await this.webhooks.lockForReply(m, webhookId);
    if (found?.creator && creatorLostAccess(found.creator)) {
      throw commandFailure('invalid', 'rule', 'webhook', {
        problem: `cannot be enabled while its creator (user ${found.creator.creator.id}) may not read room ${roomId}: give them access again, or delete it`,
      });
    }
  }

  /**
   * A webhook's reply (a notification `causedBy` it) is posted only while the webhook is
   * enabled, of the room, and its creator may read the room, as committed when the reply is
   * applied: a change of access committed while the delivery was in flight refuses it.
   * Throws before any write (the batch contract of SendNotification).
   */
  async assertMayReply(m: EntityManager, roomId: number, webhookId: number): Promise<void> {
    const refusal = replyRefusal(webhookId, roomId, await this.webhooks.lockForReply(m, webhookId));
    if (refusal) throw commandFailure('forbidden', 'not_allowed', 'causedBy', { message: refusal });
  }
}

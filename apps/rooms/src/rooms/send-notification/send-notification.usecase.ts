import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, NotificationColor, NotificationMessageObject, ReplyOf, RequestOf, RoomNotificationSentV2, SendNotificationV1,
} from '@app/contracts';
import { Tx, UnitOfWork } from '../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { MessageRepository } from '../message.repository';
import { extractMentionNames, messageBody } from '../message-rules';
import { RoomPost } from '../room-post';
import { resolveColor } from './color';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { WebhookAccessSteps } from '../../webhooks/lost-access/webhook-access-steps';

/** from_label is varchar(64); a token label may be longer (100). */
const FROM_LABEL_MAX = 64;

/**
 * Who a notification is from: the `from` given (v1 always gives one), else the acting
 * user's name (v2 personal tokens), else the token's label.
 */
export function notificationFrom(given: string | undefined, userName: string | null, label: string): string {
  const from = given || userName || label || 'API';
  return Array.from(from).slice(0, FROM_LABEL_MAX).join('');
}

/**
 * The hot path: group-committed with the other messages that arrive together. The room is
 * read FOR SHARE (once per batch), so messages to one room commit concurrently while a
 * change of the room waits for them; its last activity is derived from the messages, so
 * no room row is updated per message.
 */
@Injectable()
export class SendNotification {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly post: RoomPost,
    private readonly messages: MessageRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    private readonly webhookSteps: WebhookAccessSteps,
  ) {}

  execute(cmd: RequestOf<typeof SendNotificationV1>, meta: CommandMeta): Promise<ReplyOf<typeof SendNotificationV1>> {
    // Pure work first: a refusal must come before the first write (batch contract).
    let prepared: Prepared;
    try {
      prepared = prepare(cmd);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.uow.apply(meta, (tx: Tx) => this.stage(tx, cmd, prepared), { batch: true });
  }

  /**
   * The same notification, posted within a transaction the caller has open: a notice the
   * service itself posts with the change it tells about (a webhook disabled).
   */
  postWithin(tx: Tx, cmd: RequestOf<typeof SendNotificationV1>): Promise<ReplyOf<typeof SendNotificationV1>> {
    return this.stage(tx, cmd, prepare(cmd));
  }

  private async stage(tx: Tx, cmd: RequestOf<typeof SendNotificationV1>, { body, color, mentionNames }: Prepared): Promise<ReplyOf<typeof SendNotificationV1>> {
    const { room, user } = await this.post.open(tx, cmd.room, cmd.actor);
    // A webhook's reply: only while the webhook may still read the room.
    if (cmd.causedBy) await this.webhookSteps.assertMayReply(tx.manager, room.id, cmd.causedBy.webhookId);
    if (cmd.attachTo !== undefined && !(await this.messages.sentAt(tx.manager, room.id, cmd.attachTo))) {
      throw commandFailure('invalid', 'rule', 'attachTo', { problem: `must be the id of a message of room ${room.name} (got "${cmd.attachTo}")` });
    }
    const from = notificationFrom(cmd.from, user?.name ?? null, cmd.actor.label);
    const { message, mentioned } = await this.post.store(tx, room, {
      type: 'notification', fromLabel: from, userId: null, body, messageFormat: cmd.messageFormat, color, notify: cmd.notify,
      card: cmd.card ?? null, attachTo: cmd.attachTo ?? null,
    }, mentionNames);
    const item: NotificationMessageObject = {
      color, date: message.createdAt.toISOString(), from, id: message.id,
      mentions: mentioned.map((u) => toUserObject(u, this.ctx)), message: body,
      message_format: cmd.messageFormat, type: 'notification',
    };
    this.post.announce(tx, message, RoomNotificationSentV2, {
      room: toRoomObject(room, this.ctx), message: item, notify: cmd.notify, ...(cmd.causedBy ? { causedBy: cmd.causedBy } : {}),
      ...(cmd.actor?.userId ? { actorUserId: cmd.actor.userId } : {}),
      // The bridges show it as their platform's card (the webhook's item leaves it out).
      ...(cmd.card ? { card: cmd.card } : {}),
    });
    return { messageId: message.id, date: item.date };
  }
}

interface Prepared {
  body: string;
  color: NotificationColor;
  mentionNames: string[];
}

/** What needs no database: the sanitized body (refused when blank), the colour, the mentions. */
function prepare(cmd: RequestOf<typeof SendNotificationV1>): Prepared {
  const body = messageBody(cmd.message, cmd.messageFormat);
  return { body, color: resolveColor(cmd.color), mentionNames: cmd.messageFormat === 'text' ? extractMentionNames(body) : [] };
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, NotificationMessageObject, ReplyOf, RequestOf, RoomNotificationSentV1, RoomRef, SendNotificationV1,
} from '@app/contracts';
import { MessageEntity } from '../../database/entities';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { PRESENTATION, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { MessageRepository } from '../message.repository';
import { RoomRepository } from '../room.repository';
import { resolveColor } from './color';
import { extractMentionNames } from './mentions';
import { sanitizeMessageHtml } from './sanitize';

const refKey = (ref: RoomRef) => ('id' in ref ? `room:id:${ref.id}` : `room:name:${ref.name.toLowerCase()}`);

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
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof SendNotificationV1>, meta: CommandMeta): Promise<ReplyOf<typeof SendNotificationV1>> {
    // Pure work first: a refusal must come before the first write (batch contract).
    const body = cmd.messageFormat === 'html' ? sanitizeMessageHtml(cmd.message) : cmd.message;
    if (body.trim() === '') return Promise.reject(commandFailure('invalid', 'message_empty_after_sanitizing', 'message'));
    const color = resolveColor(cmd.color);
    const mentionNames = cmd.messageFormat === 'text' ? extractMentionNames(body) : [];

    return this.uow.apply(meta, async ({ manager: m, emit, memo, insertLater }) => {
      const room = await memo(refKey(cmd.room), () => this.rooms.findByRef(m, cmd.room, 'share'));
      if (room.isArchived) throw commandFailure('invalid', 'room_archived', 'room', { name: room.name });
      const mentioned = await this.users.byMentionNames(m, mentionNames);
      const now = new Date();
      const message = Object.assign(new MessageEntity(), {
        id: randomUUID(), roomId: room.id, type: 'notification', fromLabel: cmd.from, userId: null,
        body, messageFormat: cmd.messageFormat, color, notify: cmd.notify,
        mentionUserIds: mentioned.map((u) => u.id), createdAt: now,
      });
      insertLater('messages', this.messages.row(message));
      const item: NotificationMessageObject = {
        color, date: now.toISOString(), from: cmd.from, id: message.id,
        mentions: mentioned.map((u) => toUserObject(u, this.ctx)), message: body,
        message_format: cmd.messageFormat, type: 'notification',
      };
      emit(RoomNotificationSentV1, { room: toRoomObject(room, this.ctx), message: item, notify: cmd.notify });
      return { messageId: message.id, date: item.date };
    }, { batch: true });
  }
}

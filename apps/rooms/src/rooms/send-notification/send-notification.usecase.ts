import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, NotificationMessageObject, ReplyOf, RequestOf, RoomNotificationSentV1, RoomRef, SendNotificationV1,
} from '@app/contracts';
import { MessageEntity } from '../../database/entities';
import { Tx, UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../shared/actors';
import { PRESENTATION, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { assertMayUseRoom } from '../get-history/room-access';
import { MessageRepository, StoredMessage } from '../message.repository';
import { RoomRepository } from '../room.repository';
import { resolveColor } from './color';
import { extractMentionNames } from './mentions';
import { sanitizeMessageHtml } from './sanitize';

/** The key under which a batch shares a room read FOR SHARE (every send of the batch uses it). */
export const roomRefKey = (ref: RoomRef) => ('id' in ref ? `room:id:${ref.id}` : `room:name:${ref.name.toLowerCase()}`);

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
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof SendNotificationV1>, meta: CommandMeta): Promise<ReplyOf<typeof SendNotificationV1>> {
    // Pure work first: a refusal must come before the first write (batch contract).
    const body = cmd.messageFormat === 'html' ? sanitizeMessageHtml(cmd.message) : cmd.message;
    if (body.trim() === '') return Promise.reject(commandFailure('invalid', 'message_empty_after_sanitizing', 'message'));
    const color = resolveColor(cmd.color);
    const mentionNames = cmd.messageFormat === 'text' ? extractMentionNames(body) : [];

    return this.uow.apply(meta, async (tx: Tx) => {
      const { manager: m, emit, memo, insertLater } = tx;
      const room = await memo(roomRefKey(cmd.room), () => this.rooms.findByRef(m, cmd.room, 'share'));
      // No user behind v1 tokens: no query; a v2 user is read once per batch.
      const user = await memo(`actor:${cmd.actor.userId ?? ''}`, () => this.actors.user(m, cmd.actor));
      await assertMayUseRoom(cmd.actor, user, room, 'send to it', () => memo(`members:${room.id}`, () => this.rooms.memberIds(m, room.id)));
      if (room.isArchived) throw commandFailure('invalid', 'room_archived', 'room', { name: room.name });
      if (cmd.attachTo !== undefined && !(await this.messages.sentAt(m, room.id, cmd.attachTo))) {
        throw commandFailure('invalid', 'rule', 'attachTo', { problem: `must be the id of a message of room ${room.name} (got "${cmd.attachTo}")` });
      }
      const mentioned = await this.users.byMentionNames(m, mentionNames);
      const from = notificationFrom(cmd.from, user?.name ?? null, cmd.actor.label);
      const now = new Date();
      const message: StoredMessage = Object.assign(new MessageEntity(), {
        id: randomUUID(), roomId: room.id, type: 'notification' as const, fromLabel: from, userId: null,
        body, messageFormat: cmd.messageFormat, color, notify: cmd.notify,
        mentionUserIds: mentioned.map((u) => u.id), createdAt: now,
        card: cmd.card ?? null, attachTo: cmd.attachTo ?? null,
      });
      insertLater('messages', this.messages.row(message));
      const item: NotificationMessageObject = {
        color, date: now.toISOString(), from, id: message.id,
        mentions: mentioned.map((u) => toUserObject(u, this.ctx)), message: body,
        message_format: cmd.messageFormat, type: 'notification',
      };
      emit(RoomNotificationSentV1, {
        room: toRoomObject(room, this.ctx), message: item, notify: cmd.notify, ...(cmd.causedBy ? { causedBy: cmd.causedBy } : {}),
        ...(cmd.actor?.userId ? { actorUserId: cmd.actor.userId } : {}),
      });
      return { messageId: message.id, date: item.date };
    }, { batch: true });
  }
}

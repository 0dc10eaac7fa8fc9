import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, extractMessageLink, MessageObject, ReplyOf, RequestOf, RoomMessageSentV1, SendMessageV1,
} from '@app/contracts';
import { MessageEntity } from '../../database/entities';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../shared/actors';
import { PRESENTATION, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { assertMayUseRoom } from '../get-history/room-access';
import { MessageRepository, StoredMessage } from '../message.repository';
import { RoomRepository } from '../room.repository';
import { extractMentionNames } from '../send-notification/mentions';
import { roomRefKey } from '../send-notification/send-notification.usecase';

/**
 * A user's message, sent as the actor's user: plain text whose @mentions resolve to users
 * and whose last link is extracted (no metadata is fetched). Group-committed like
 * notifications (see SendNotification).
 */
@Injectable()
export class SendMessage {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof SendMessageV1>, meta: CommandMeta): Promise<ReplyOf<typeof SendMessageV1>> {
    // Refusals before the first write (batch contract).
    if (cmd.actor.userId === undefined) {
      return Promise.reject(commandFailure('forbidden', 'not_allowed', 'actor', {
        message: 'Messages are sent as a user: this token has none. Use a personal token, or send a notification.',
      }));
    }
    if (cmd.message.trim() === '') return Promise.reject(commandFailure('invalid', 'rule', 'message', { problem: 'must not be blank' }));
    const text = cmd.message;
    const mentionNames = extractMentionNames(text);
    const link = extractMessageLink(text);

    return this.uow.apply(meta, async ({ manager: m, emit, memo, insertLater }) => {
      const room = await memo(roomRefKey(cmd.room), () => this.rooms.findByRef(m, cmd.room, 'share'));
      const sender = (await memo(`actor:${cmd.actor.userId ?? ''}`, () => this.actors.user(m, cmd.actor)))!;
      await assertMayUseRoom(cmd.actor, sender, room, 'send to it', () => memo(`members:${room.id}`, () => this.rooms.memberIds(m, room.id)));
      if (room.isArchived) throw commandFailure('invalid', 'room_archived', 'room', { name: room.name });
      const mentioned = await this.users.byMentionNames(m, mentionNames);
      const now = new Date();
      const links = link ? [{ type: link.type, url: link.url }] : null;
      const message: StoredMessage = Object.assign(new MessageEntity(), {
        id: randomUUID(), roomId: room.id, type: 'message' as const, fromLabel: sender.name, userId: sender.id,
        body: text, messageFormat: 'text' as const, color: null, notify: false,
        mentionUserIds: mentioned.map((u) => u.id), createdAt: now, messageLinks: links,
      });
      insertLater('messages', this.messages.row(message));
      const item: MessageObject = {
        date: now.toISOString(),
        from: toUserObject(sender, this.ctx),
        id: message.id,
        mentions: mentioned.map((u) => toUserObject(u, this.ctx)),
        message: text,
        ...(links ? { message_links: links } : {}),
        type: 'message',
      };
      emit(RoomMessageSentV1, { room: toRoomObject(room, this.ctx), message: item });
      return { id: message.id, date: item.date };
    }, { batch: true });
  }
}

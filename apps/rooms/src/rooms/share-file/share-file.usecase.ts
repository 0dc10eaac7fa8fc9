import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, FileObject, ReplyOf, RequestOf, RoomFileUploadedV1, ShareFileV1 } from '@app/contracts';
import { MessageEntity } from '../../database/entities';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../shared/actors';
import { PRESENTATION, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { assertMayUseRoom } from '../get-history/room-access';
import { MessageRepository, StoredMessage } from '../message.repository';
import { RoomRepository } from '../room.repository';
import { extractMentionNames } from '../send-notification/mentions';

/** The File object of events and history, as stored in `messages.file`. */
export function fileObjectOf(file: RequestOf<typeof ShareFileV1>['file']): FileObject {
  return { name: file.name, size: file.size, url: file.url, ...(file.thumbUrl ? { thumb_url: file.thumbUrl } : {}) };
}

/**
 * A user shares a file the gateway has stored: a message of theirs carrying the file (its
 * text is the optional message) and a room_file_upload event, in one transaction.
 */
@Injectable()
export class ShareFile {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof ShareFileV1>, meta: CommandMeta): Promise<ReplyOf<typeof ShareFileV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit, insertLater }) => {
      const user = await this.actors.user(m, cmd.actor);
      // The event's sender is a User object: a file is always shared by a user.
      if (!user) throw commandFailure('forbidden', 'not_allowed', 'actor', { message: 'Only a user can share a file: use a personal token.' });
      // FOR SHARE, as sends do: a change of the room waits for the message.
      const room = await this.rooms.findByRef(m, cmd.room, 'share');
      await assertMayUseRoom(cmd.actor, user, room, 'send to it', () => this.rooms.memberIds(m, room.id));
      if (room.isArchived) throw commandFailure('invalid', 'room_archived', 'room', { name: room.name });

      const body = cmd.message ?? '';
      const mentioned = await this.users.byMentionNames(m, extractMentionNames(body));
      const file = fileObjectOf(cmd.file);
      const message: StoredMessage = Object.assign(new MessageEntity(), {
        id: randomUUID(), roomId: room.id, type: 'message' as const, fromLabel: null, userId: user.id,
        body, messageFormat: 'text' as const, color: null, notify: false,
        mentionUserIds: mentioned.map((u) => u.id), createdAt: new Date(), file,
      });
      insertLater('messages', this.messages.row(message));
      emit(RoomFileUploadedV1, { file, room: toRoomObject(room, this.ctx), sender: toUserObject(user, this.ctx) });
      return { messageId: message.id, date: message.createdAt.toISOString() };
    });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { keyOfFileUrl, type CommandMeta } from '@app/common';
import { commandFailure, FileObject, ReplyOf, RequestOf, RoomFileUploadedV2, ShareFileV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { extractMentionNames } from '../message-rules';
import { RoomFileRepository } from '../files/room-file.repository';
import { RoomPost } from '../room-post';
import { PRESENTATION } from '../../shared/infrastructure.module';

/** The File object of history, as stored in `messages.file`. */
export function fileObjectOf(file: RequestOf<typeof ShareFileV1>['file']): FileObject {
  return { name: file.name, size: file.size, url: file.url, ...(file.thumbUrl ? { thumb_url: file.thumbUrl } : {}) };
}

/** The File object of room_file_upload: its signed links when the gateway made them (webhook receivers fetch them without credentials). */
export function eventFileObjectOf(file: RequestOf<typeof ShareFileV1>['file']): FileObject {
  if (!file.signed) return fileObjectOf(file);
  return { name: file.name, size: file.size, url: file.signed.url, ...(file.signed.thumbUrl ? { thumb_url: file.signed.thumbUrl } : {}) };
}

/** The storage keys a shared file's URLs name (the file's, its thumbnail's). */
export function storageKeysOf(file: RequestOf<typeof ShareFileV1>['file']): string[] {
  return [keyOfFileUrl(file.url), keyOfFileUrl(file.thumbUrl)].filter((k): k is string => k !== null);
}

/**
 * A user shares a file the gateway has stored: a message of theirs carrying the file (its
 * text is the optional message) and a room_file_upload event, in one transaction.
 */
@Injectable()
export class ShareFile {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly post: RoomPost,
    private readonly files: RoomFileRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof ShareFileV1>, meta: CommandMeta): Promise<ReplyOf<typeof ShareFileV1>> {
    return this.uow.apply(meta, async (tx) => {
      // The user is checked before the room: the event's sender is a User object, a file is always shared by a user.
      const user = await this.post.actingUser(tx, cmd.actor);
      if (!user) throw commandFailure('forbidden', 'not_allowed', 'actor', { message: 'Only a user can share a file: use a personal token.' });
      // As sends do (the user read above is not read again).
      const { room } = await this.post.open(tx, cmd.room, cmd.actor);

      const body = cmd.message ?? '';
      const file = fileObjectOf(cmd.file);
      const { message } = await this.post.store(tx, room, {
        type: 'message', fromLabel: null, userId: user.id, body, messageFormat: 'text', color: null, notify: false, file,
      }, extractMentionNames(body));
      // The room's from now on: served by its privacy, removed with it.
      await this.files.record(tx.manager, room.id, storageKeysOf(cmd.file));
      this.post.announce(tx, message, RoomFileUploadedV2, { file: eventFileObjectOf(cmd.file), room: toRoomObject(room, this.ctx), sender: toUserObject(user, this.ctx) });
      return { messageId: message.id, date: message.createdAt.toISOString() };
    });
  }
}

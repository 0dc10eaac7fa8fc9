import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, MarkRoomReadV1, ReplyOf, RequestOf } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { RoomRepository } from '../../rooms/room.repository';
import { Actors } from '../../users/actors';
import { ChatRepository } from '../chat.repository';

/** What is read is a person's: a token of no user (a room token, an add-on) has nothing to mark. */
export const noUserRefusal = () => commandFailure('forbidden', 'not_allowed', 'actor', {
  message: 'Chats and what was read of them are a user\'s: use a personal token or the console (this token has no user).',
});

/**
 * The acting user has read a room up to a message (PUT /v2/room/{room}/read): for whoever may
 * see the room (the private-room rule, as for its history). The marker only moves forward.
 */
@Injectable()
export class MarkRoomRead {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly actors: Actors,
    private readonly chats: ChatRepository,
  ) {}

  execute(cmd: RequestOf<typeof MarkRoomReadV1>, meta: CommandMeta): Promise<ReplyOf<typeof MarkRoomReadV1>> {
    const userId = cmd.actor.userId;
    if (userId === undefined) return Promise.reject(noUserRefusal());
    return this.uow.apply(meta, async ({ manager: m }) => {
      const { room } = await this.rooms.findForUse(m, cmd.room, cmd.actor, () => this.actors.user(m, cmd.actor));
      const at = await this.chats.roomMessage(m, room.id, cmd.messageId);
      if (!at) throw commandFailure('invalid', 'rule', 'message_id', { problem: `names no message of room ${room.id}` });
      await this.chats.markRoom(m, userId, room.id, at);
      return {};
    });
  }
}

import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, MarkPrivateChatReadV1, ReplyOf, RequestOf } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { UserRepository } from '../../users/user.repository';
import { ChatRepository } from '../chat.repository';
import { noUserRefusal } from '../mark-room-read/mark-room-read.usecase';

/**
 * The acting user has read their private chat with another user up to a message of it
 * (PUT /v2/user/{user}/read), sent either way. The marker only moves forward.
 */
@Injectable()
export class MarkPrivateChatRead {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly chats: ChatRepository,
  ) {}

  execute(cmd: RequestOf<typeof MarkPrivateChatReadV1>, meta: CommandMeta): Promise<ReplyOf<typeof MarkPrivateChatReadV1>> {
    const userId = cmd.actor.userId;
    if (userId === undefined) return Promise.reject(noUserRefusal());
    return this.uow.apply(meta, async ({ manager: m }) => {
      await this.users.findByRef(m, { id: userId }, { live: true, field: 'actor' });
      const other = await this.users.findByRef(m, cmd.user);
      const at = await this.chats.privateMessage(m, userId, other.id, cmd.messageId);
      if (!at) throw commandFailure('invalid', 'rule', 'message_id', { problem: `names no private message between you and user ${other.id}` });
      await this.chats.markPrivateChat(m, userId, other.id, at);
      return {};
    });
  }
}

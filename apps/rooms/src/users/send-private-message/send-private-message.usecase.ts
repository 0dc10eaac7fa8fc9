import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, PrivateMessageSentV1, ReplyOf, RequestOf, SendPrivateMessageV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { messageBody } from '../../rooms/message-rules';
import { PrivateMessageRepository } from '../private-message.repository';
import { UserRepository } from '../user.repository';

export const NO_USER_BEHIND_TOKEN = 'Private messages are sent by a user: use a personal token (this token has no user).';

/**
 * From the acting user to a live user. Its event (PrivateMessageSentV1) is no room event, so
 * no webhook sees it (webhooks are about rooms): it feeds both users' live streams.
 */
@Injectable()
export class SendPrivateMessage {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly messages: PrivateMessageRepository,
  ) {}

  execute(cmd: RequestOf<typeof SendPrivateMessageV1>, meta: CommandMeta): Promise<ReplyOf<typeof SendPrivateMessageV1>> {
    const fromUserId = cmd.actor.userId;
    if (fromUserId === undefined) return Promise.reject(commandFailure('forbidden', 'not_allowed', 'actor', { message: NO_USER_BEHIND_TOKEN }));
    let body: string;
    try {
      body = messageBody(cmd.message, cmd.messageFormat);
    } catch (err) {
      return Promise.reject(err);
    }

    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const from = await this.users.findByRef(m, { id: fromUserId }, { live: true, field: 'actor' });
      const to = await this.users.findByRef(m, cmd.user, { live: true });
      const message = { id: randomUUID(), fromUserId, toUserId: to.id, body, messageFormat: cmd.messageFormat, createdAt: new Date() };
      await this.messages.insert(m, message);
      emit(PrivateMessageSentV1, {
        message: {
          id: message.id, date: message.createdAt.toISOString(), message: body, messageFormat: cmd.messageFormat,
          from: { id: from.id, name: from.name, mentionName: from.mentionName, version: from.version },
        },
        to: { id: to.id, name: to.name, mentionName: to.mentionName, version: to.version },
      });
      return { messageId: message.id, date: message.createdAt.toISOString() };
    });
  }
}

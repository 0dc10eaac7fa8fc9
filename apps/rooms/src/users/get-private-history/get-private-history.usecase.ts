import { Injectable } from '@nestjs/common';
import { commandFailure, GetPrivateHistoryV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { NO_USER_BEHIND_TOKEN } from '../send-private-message/send-private-message.usecase';
import { PrivateMessageRepository } from '../private-message.repository';
import { UserRepository } from '../user.repository';

/** The acting user's latest one-to-one messages with another user (deleted users' too). */
@Injectable()
export class GetPrivateHistory {
  constructor(
    private readonly db: DataSource,
    private readonly users: UserRepository,
    private readonly messages: PrivateMessageRepository,
  ) {}

  async execute(cmd: RequestOf<typeof GetPrivateHistoryV1>): Promise<ReplyOf<typeof GetPrivateHistoryV1>> {
    const me = cmd.actor.userId;
    if (me === undefined) throw commandFailure('forbidden', 'not_allowed', 'actor', { message: NO_USER_BEHIND_TOKEN });
    const other = await this.users.findByRef(this.db.manager, cmd.user);
    const rows = await this.messages.latestBetween(this.db.manager, me, other.id, cmd.limit);
    return {
      messages: rows.map((r) => ({
        id: r.id,
        date: r.createdAt.toISOString(),
        from: { id: r.fromUserId, name: r.fromName, mentionName: r.fromMentionName, version: r.fromVersion },
        message: r.body,
        messageFormat: r.messageFormat,
      })),
    };
  }
}

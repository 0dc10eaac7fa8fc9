import { Injectable } from '@nestjs/common';
import { ChatRoomView, ChatUserView, commandFailure, ListChatsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { Actors } from '../../users/actors';
import { UserRepository } from '../../users/user.repository';
import { ChatRepository } from '../chat.repository';
import { privateMentionPattern } from '../chat-rules';
import { noUserRefusal } from '../mark-room-read/mark-room-read.usecase';

const lastOf = (row: { last_id: string | null; last_at: Date | null }) =>
  (row.last_id && row.last_at ? { id: row.last_id, date: row.last_at.toISOString() } : null);

/**
 * A person's chats with what is unread in each (GET /v2/user/{user}/chats): personal, so
 * for the user themselves only (a group admin included: what someone else has read is theirs).
 */
@Injectable()
export class ListChats {
  constructor(
    private readonly db: DataSource,
    private readonly users: UserRepository,
    private readonly actors: Actors,
    private readonly chats: ChatRepository,
  ) {}

  async execute(cmd: RequestOf<typeof ListChatsV1>): Promise<ReplyOf<typeof ListChatsV1>> {
    if (cmd.actor.userId === undefined) throw noUserRefusal();
    const m = this.db.manager;
    const target = await this.users.findByRef(m, cmd.user);
    if (target.id !== cmd.actor.userId) {
      throw commandFailure('forbidden', 'not_allowed', 'user', { message: `A person's chats are their own: user ${cmd.actor.userId} may read only theirs, not user ${target.id}'s.` });
    }
    const me = (await this.actors.user(m, cmd.actor))!;
    const rooms: ChatRoomView[] = (await this.chats.rooms(m, me.id)).map((r) => ({
      id: r.id, name: r.name, privacy: r.privacy, unread: r.unread, mentioned: r.mentioned, lastMessage: lastOf(r),
    }));
    const users: ChatUserView[] = (await this.chats.privateChats(m, me.id, privateMentionPattern(me.mentionName))).map((u) => ({
      id: u.id, name: u.name, mentionName: u.mention_name, unread: u.unread, mentioned: u.mentioned, lastMessage: lastOf(u),
    }));
    return { rooms, users };
  }
}

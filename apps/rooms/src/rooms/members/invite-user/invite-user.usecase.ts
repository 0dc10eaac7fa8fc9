import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { InviteUserV1, ReplyOf, RequestOf } from '@app/contracts';
import { UnitOfWork } from '../../../outbox/unit-of-work';
import { UserRepository } from '../../../users/user.repository';
import { assertMayAdminister } from '../../room-access';
import { RoomRepository } from '../../room.repository';
import { AuditRepository } from '../../../audit/audit.repository';
import { roomSubject } from '../../../audit/audit-line';

/**
 * An invitation to a private room makes the user a member (so that they may accept it by
 * entering); to a public room it stores nothing. Delivering it to the user (with `reason`)
 * belongs to their live connection, a later issue.
 */
@Injectable()
export class InviteUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly audit: AuditRepository,
  ) {}

  execute(cmd: RequestOf<typeof InviteUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof InviteUserV1>> {
    return this.uow.apply(meta, async ({ manager: m }) => {
      const { room, standing } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share');
      // Inviting to a public room stores nothing: anyone may; to a private one it makes a member.
      if (room.privacy === 'private') assertMayAdminister(room, standing, 'manage the members of');
      const user = await this.users.findByRef(m, cmd.user, { live: true });
      if (room.privacy === 'private') await this.rooms.addMember(m, room.id, user.id);
      await this.audit.append(m, cmd.actor, { action: 'room.member_invited', target: roomSubject(room), details: { user: { id: user.id, name: user.name } } });
      return {};
    });
  }
}

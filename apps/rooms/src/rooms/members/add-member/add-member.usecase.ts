import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { AddMemberV1, ReplyOf, RequestOf, RoomMemberAddedV1 } from '@app/contracts';
import { UnitOfWork } from '../../../outbox/unit-of-work';
import { UserRepository } from '../../../users/user.repository';
import { RoomRepository } from '../../room.repository';
import { assertPrivate } from '../member-rules';
import { AuditRepository } from '../../../audit/audit.repository';
import { roomSubject } from '../../../audit/audit-line';
import { assertMayAdminister } from '../../room-access';

/**
 * Adding a member emits no room event and keeps the room's version: the version tags the Room
 * object (what PUT /room replaces and events carry), and membership is not part of it. Its
 * notice (RoomMemberAddedV1, no webhook event) adds the room to the member's live stream.
 */
@Injectable()
export class AddMember {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly audit: AuditRepository,
  ) {}

  execute(cmd: RequestOf<typeof AddMemberV1>, meta: CommandMeta): Promise<ReplyOf<typeof AddMemberV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      // FOR SHARE: a change of the room's privacy waits for the membership change, and the other way round.
      const { room, standing } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share');
      assertPrivate(room, cmd.room);
      assertMayAdminister(room, standing, 'manage the members of');
      const user = await this.users.findByRef(m, cmd.user, { live: true });
      await this.rooms.addMember(m, room.id, user.id);
      emit(RoomMemberAddedV1, { roomId: room.id, userId: user.id });
      await this.audit.append(m, cmd.actor, { action: 'room.member_added', target: roomSubject(room), details: { user: { id: user.id, name: user.name } } });
      return {};
    });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { EnterRoomV1, ReplyOf, RequestOf, RoomMemberEnteredV2 } from '@app/contracts';
import { UnitOfWork } from '../../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../../shared/presentation';
import { UserRepository } from '../../../users/user.repository';
import { MemberRepository } from '../../members/member.repository';
import { assertMayActOn, assertNotRefused, membershipDecides, movingRefusal, passesPrivateRoomRule, roomNotFound, standingOf } from '../../room-access';
import { RoomRepository } from '../../room.repository';
import { ParticipantRepository } from '../participant.repository';
import { assertNotArchived } from '../presence-rules';
import { PRESENTATION } from '../../../shared/infrastructure.module';

/**
 * A user enters a room (room_enter), whoever drives it: the v2 API now, a live connection
 * later. Entering a room one is in changes nothing and emits nothing.
 */
@Injectable()
export class EnterRoom {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly members: MemberRepository,
    private readonly participants: ParticipantRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof EnterRoomV1>, meta: CommandMeta): Promise<ReplyOf<typeof EnterRoomV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      // FOR SHARE: archiving, a privacy change or the room's deletion waits for the entry (and then sees it).
      const { room, standing } = await this.rooms.openForActor(m, cmd.room, cmd.actor, 'share');
      // Locked: a user being deleted (taken out of every room) is not let in meanwhile.
      const user = await this.users.findByRef(m, cmd.user, { live: true, lock: true });
      const self = user.id === cmd.actor.userId;
      // Moving someone else is administering the room (its owner, group admins); entering oneself is decided below.
      if (!self) {
        assertMayActOn(cmd.actor, room, cmd.room, standing);
        assertNotRefused(movingRefusal(room, cmd.actor, standing, user.id, cmd.asAdmin));
      }
      // The private-room rule, judged on who enters. The membership row stays locked: a removal waits for this entry, then exits the user.
      const isMember = membershipDecides(room, user) && await this.members.isMember(m, room.id, user.id, { lock: true });
      if (!passesPrivateRoomRule(room, standingOf(user.id, room, user.isGroupAdmin, isMember))) {
        // Oneself: as if the room did not exist (room-access.ts, roomNotFound); someone else: whoever moves them sees the room.
        if (self) throw roomNotFound(cmd.room);
        assertNotRefused(`User ${user.id} is not a member of the private room ${room.name}: only its members, its owner and group admins may enter it.`);
      }
      assertNotArchived(room);
      if (await this.participants.enter(m, room.id, user.id)) {
        emit(RoomMemberEnteredV2, { room: toRoomObject(room, this.ctx), sender: toUserObject(user, this.ctx) });
      }
      return {};
    });
  }
}

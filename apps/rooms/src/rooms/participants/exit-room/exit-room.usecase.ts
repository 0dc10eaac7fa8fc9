import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { ExitRoomV1, ReplyOf, RequestOf, RoomMemberExitedV2 } from '@app/contracts';
import { UnitOfWork } from '../../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../../shared/presentation';
import { UserRepository } from '../../../users/user.repository';
import { assertMayActOn, assertNotRefused, movingRefusal } from '../../room-access';
import { RoomRepository } from '../../room.repository';
import { ParticipantRepository } from '../participant.repository';
import { PRESENTATION } from '../../../shared/infrastructure.module';

/** A user exits a room (room_exit); one who is not in it changes nothing. Archived rooms may be left. */
@Injectable()
export class ExitRoom {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly participants: ParticipantRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof ExitRoomV1>, meta: CommandMeta): Promise<ReplyOf<typeof ExitRoomV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const { room, standing } = await this.rooms.openForActor(m, cmd.room, cmd.actor, 'share');
      const user = await this.users.findByRef(m, cmd.user, { live: true });
      const self = user.id === cmd.actor.userId;
      // Moving someone else is administering the room (its owner, group admins); leaving it oneself is always allowed.
      if (!self) {
        assertMayActOn(cmd.actor, room, cmd.room, standing);
        assertNotRefused(movingRefusal(room, cmd.actor, standing, user.id, cmd.asAdmin));
      }
      if (await this.participants.exit(m, room.id, user.id)) {
        emit(RoomMemberExitedV2, { room: toRoomObject(room, this.ctx), sender: toUserObject(user, this.ctx) });
      } else if (self) {
        // Not in it: someone the private-room rule keeps out learns nothing of the room (as if it did not exist).
        assertMayActOn(cmd.actor, room, cmd.room, standing);
      }
      return {};
    });
  }
}

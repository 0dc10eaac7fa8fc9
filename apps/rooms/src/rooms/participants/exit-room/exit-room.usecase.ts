import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { ExitRoomV1, ReplyOf, RequestOf, RoomMemberExitedV2 } from '@app/contracts';
import { UnitOfWork } from '../../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../../shared/presentation';
import { UserRepository } from '../../../users/user.repository';
import { assertMayActOn } from '../../room-access';
import { RoomRepository } from '../../room.repository';
import { ParticipantRepository } from '../participant.repository';
import { assertMayMove } from '../presence-rules';
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
      assertMayMove(cmd.actor, cmd.asAdmin, user);
      // Moving someone else is acting on the room; leaving it oneself is always allowed.
      assertMayActOn(cmd.actor, room, user.id === cmd.actor.userId ? null : standing);
      if (await this.participants.exit(m, room.id, user.id)) {
        emit(RoomMemberExitedV2, { room: toRoomObject(room, this.ctx), sender: toUserObject(user, this.ctx) });
      }
      return {};
    });
  }
}

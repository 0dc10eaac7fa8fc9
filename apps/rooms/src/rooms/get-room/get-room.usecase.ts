import { Inject, Injectable } from '@nestjs/common';
import { GetRoomV1, ReplyOf, RequestOf, RoomUserView } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { UserEntity } from '../../database/entities';
import { PresentationContext, toRoomView } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { ParticipantRepository } from '../participants/participant.repository';
import { RoomRepository } from '../room.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

const toRoomUser = (u: UserEntity): RoomUserView => ({ userId: u.id, name: u.name, mentionName: u.mentionName, version: u.version });

/** A room with its members and who is in it now; v2 asks for the owner as a user too. */
@Injectable()
export class GetRoom {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly participants: ParticipantRepository,
    private readonly users: UserRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof GetRoomV1>): Promise<ReplyOf<typeof GetRoomV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findForViewer(m, cmd.room, cmd.actor?.userId);
    const [lastActive, memberUserIds, inRoom, owner] = await Promise.all([
      this.rooms.lastActive(m, room.id),
      this.rooms.memberIds(m, room.id),
      this.participants.listUsers(m, room.id, 0, 1000),
      cmd.withOwner ? this.users.findByRef(m, { id: room.ownerUserId }, { field: 'owner' }) : Promise.resolve(null),
    ]);
    return {
      room: {
        ...toRoomView(room, lastActive, this.ctx),
        memberUserIds,
        participants: inRoom.map(toRoomUser),
        ...(owner ? { owner: toRoomUser(owner) } : {}),
      },
    };
  }
}

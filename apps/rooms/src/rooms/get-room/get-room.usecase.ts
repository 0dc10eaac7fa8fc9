import { Inject, Injectable } from '@nestjs/common';
import { commandFailure, describeRef, GetRoomV1, ReplyOf, RequestOf, RoomUserView } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PresentationContext, toRoomView } from '../../shared/presentation';
import { RoomRepository, RoomUserRow } from '../room.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

const toRoomUser = (u: RoomUserRow): RoomUserView => ({ userId: u.id, name: u.name, mentionName: u.mention_name, version: u.version });

/** A room with its members and who is in it now; v2 asks for the owner as a user too. One statement. */
@Injectable()
export class GetRoom {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof GetRoomV1>): Promise<ReplyOf<typeof GetRoomV1>> {
    const detail = await this.rooms.detail(this.db.manager, cmd.room, cmd.actor, !!cmd.withOwner);
    if (cmd.withOwner && !detail.owner) throw commandFailure('not_found', 'user_not_found', 'owner', { ref: describeRef({ id: detail.room.ownerUserId }) });
    return {
      room: {
        ...toRoomView(detail.room, detail.lastActive, this.ctx),
        memberUserIds: detail.memberUserIds,
        participants: detail.participants.map(toRoomUser),
        ...(detail.owner ? { owner: toRoomUser(detail.owner) } : {}),
      },
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ListMembersV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PresentationContext, toUserView } from '../../../shared/presentation';
import { RoomRepository } from '../../room.repository';
import { MemberRepository } from '../member.repository';
import { assertPrivate } from '../member-rules';
import { PRESENTATION } from '../../../shared/infrastructure.module';

/** A page of a private room's members; deleted users are left out (they may no longer enter). */
@Injectable()
export class ListMembers {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly members: MemberRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof ListMembersV1>): Promise<ReplyOf<typeof ListMembersV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findForActor(m, cmd.room, cmd.actor);
    assertPrivate(room, cmd.room);
    const users = await this.members.listUsers(m, room.id, cmd.startIndex, cmd.limit);
    return { users: users.map((u) => toUserView(u, this.ctx)) };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ListParticipantsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PresentationContext, toUserView } from '../../../shared/presentation';
import { RoomRepository } from '../../room.repository';
import { ParticipantRepository } from '../participant.repository';
import { PRESENTATION } from '../../../shared/infrastructure.module';

/** A page of who is in a room now, in the order they entered. */
@Injectable()
export class ListParticipants {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly participants: ParticipantRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof ListParticipantsV1>): Promise<ReplyOf<typeof ListParticipantsV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findForActor(m, cmd.room, cmd.actor);
    const users = await this.participants.listUsers(m, room.id, cmd.startIndex, cmd.limit);
    return { users: users.map((u) => toUserView(u, this.ctx)) };
  }
}

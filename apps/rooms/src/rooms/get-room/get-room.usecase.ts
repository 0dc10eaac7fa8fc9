import { Inject, Injectable } from '@nestjs/common';
import { GetRoomV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PRESENTATION, PresentationContext, toRoomView } from '../../shared/presentation';
import { RoomRepository } from '../room.repository';

/** A room with its members; participants come with presence (a later issue). */
@Injectable()
export class GetRoom {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof GetRoomV1>): Promise<ReplyOf<typeof GetRoomV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findByRef(m, cmd.room);
    const [lastActive, memberUserIds] = await Promise.all([this.rooms.lastActive(m, room.id), this.rooms.memberIds(m, room.id)]);
    return { room: { ...toRoomView(room, lastActive, this.ctx), memberUserIds, participants: [] } };
  }
}

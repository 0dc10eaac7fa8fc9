import { Inject, Injectable } from '@nestjs/common';
import { ListRoomsV1, ReplyOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PRESENTATION, PresentationContext, toRoomView } from '../../shared/presentation';
import { RoomRepository } from '../room.repository';

@Injectable()
export class ListRooms {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(): Promise<ReplyOf<typeof ListRoomsV1>> {
    const rows = await this.rooms.listWithActivity(this.db.manager);
    return { rooms: rows.map(({ room, lastActive }) => toRoomView(room, lastActive, this.ctx)) };
  }
}

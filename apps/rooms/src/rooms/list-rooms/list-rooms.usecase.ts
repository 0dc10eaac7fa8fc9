import { Inject, Injectable } from '@nestjs/common';
import { ListRoomsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PresentationContext, toRoomView } from '../../shared/presentation';
import { RoomRepository } from '../room.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

/** v1 asks for every room; v2 for a filtered page (paged in SQL, never in memory). */
@Injectable()
export class ListRooms {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof ListRoomsV1> = {}): Promise<ReplyOf<typeof ListRoomsV1>> {
    const paged = cmd.limit !== undefined || cmd.startIndex !== undefined || cmd.includePrivate !== undefined ||
      cmd.includeArchived !== undefined || cmd.actor !== undefined;
    const rows = paged
      ? await this.rooms.listPage(this.db.manager, {
        includePrivate: cmd.includePrivate ?? true,
        includeArchived: cmd.includeArchived ?? true,
        viewerId: cmd.actor?.userId ?? null,
        onlyRoomId: cmd.actor?.roomId ?? null,
        offset: cmd.startIndex ?? 0,
        limit: cmd.limit ?? 1001,
      })
      : await this.rooms.listWithActivity(this.db.manager);
    return { rooms: rows.map(({ room, lastActive }) => toRoomView(room, lastActive, this.ctx)) };
  }
}

import { Injectable } from '@nestjs/common';
import { GetRoomEventsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { Actors } from '../../users/actors';
import { RoomRepository } from '../room.repository';
import { isCovered } from './resume-coverage';
import { RoomEventRepository } from './room-event.repository';

/**
 * A room's published events after a sequence (see GetRoomEventsV1), for whoever may read its
 * history: not found, a room token outside its room and the private-room rule as there.
 */
@Injectable()
export class GetRoomEvents {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly log: RoomEventRepository,
    private readonly actors: Actors,
  ) {}

  async execute(cmd: RequestOf<typeof GetRoomEventsV1>): Promise<ReplyOf<typeof GetRoomEventsV1>> {
    const m = this.db.manager;
    const { room } = await this.rooms.findForUse(m, cmd.room, cmd.actor, () => this.actors.user(m, cmd.actor));
    if (cmd.after === null) {
      const lastSeq = await this.log.lastSeq(m, room.id);
      return { roomId: room.id, lastSeq, covered: true, events: [] };
    }
    const window = await this.log.after(m, room.id, cmd.after, cmd.limit);
    return {
      roomId: room.id,
      lastSeq: window.lastSeq,
      covered: isCovered(cmd.after, window.lastSeq, window.oldestKept),
      events: window.events.map((e) => ({ ...e, seq: Number(e.seq) })),
    };
  }
}

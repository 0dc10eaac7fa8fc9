import { Injectable } from '@nestjs/common';
import { GetRoomStatisticsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { MessageRepository } from '../message.repository';
import { RoomRepository } from '../room.repository';

/**
 * How much a room was used, for whoever may see the room: GET of the room's access rules
 * (findForActor: 404, a room token outside its room 403, the private-room rule 403), then
 * its messages counted.
 */
@Injectable()
export class GetRoomStatistics {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute(cmd: RequestOf<typeof GetRoomStatisticsV1>): Promise<ReplyOf<typeof GetRoomStatisticsV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findForActor(m, cmd.room, cmd.actor);
    const { sent, lastActive } = await this.messages.statistics(m, room.id);
    return { statistics: { roomId: room.id, messagesSent: sent, lastActive: lastActive ? lastActive.toISOString() : null } };
  }
}

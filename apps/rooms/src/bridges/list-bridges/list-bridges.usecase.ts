import { Injectable } from '@nestjs/common';
import { ListBridgesV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../../rooms/room.repository';
import { BridgeRepository, toBridgeView } from '../bridge.repository';

/** A page of a room's bridges: all of them to its owner and group admins, to others their own (the webhook rule). */
@Injectable()
export class ListBridges {
  constructor(private readonly db: DataSource, private readonly rooms: RoomRepository, private readonly bridges: BridgeRepository) {}

  async execute(cmd: RequestOf<typeof ListBridgesV1>): Promise<ReplyOf<typeof ListBridgesV1>> {
    const m = this.db.manager;
    const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor);
    const bridges = await this.bridges.listOfRoom(m, room.id, viewer, cmd.startIndex, cmd.limit);
    return { bridges: bridges.map(toBridgeView) };
  }
}

import { Injectable } from '@nestjs/common';
import { GetBridgeV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { mayManageWebhook } from '../../rooms/room-access';
import { RoomRepository } from '../../rooms/room.repository';
import { BridgeRepository, toBridgeView } from '../bridge.repository';
import { bridgeNotFound } from '../bridge-rules';

/** One bridge of a room, to whoever may manage it (the webhook rule); to anyone else it does not exist. */
@Injectable()
export class GetBridge {
  constructor(private readonly db: DataSource, private readonly rooms: RoomRepository, private readonly bridges: BridgeRepository) {}

  async execute(cmd: RequestOf<typeof GetBridgeV1>): Promise<ReplyOf<typeof GetBridgeV1>> {
    const m = this.db.manager;
    const { room, ...viewer } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'none', () => bridgeNotFound(cmd.id));
    const bridge = await this.bridges.findById(m, room.id, cmd.id);
    if (!bridge || !mayManageWebhook(viewer, bridge)) throw bridgeNotFound(cmd.id);
    return { bridge: toBridgeView(bridge), roomName: room.name };
  }
}

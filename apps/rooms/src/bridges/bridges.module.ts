import { Module } from '@nestjs/common';
import { RoomsModule } from '../rooms/rooms.module';
import { BridgeSecrets } from './bridge-secrets';
import { BridgesHandlers } from './bridges.handlers';
import { CreateBridge } from './create-bridge/create-bridge.usecase';
import { DeleteBridge } from './delete-bridge/delete-bridge.usecase';
import { GetBridge } from './get-bridge/get-bridge.usecase';
import { ListBridges } from './list-bridges/list-bridges.usecase';
import { PutBridge } from './put-bridge/put-bridge.usecase';
import { ReceiveBridgeInbound } from './receive-inbound/receive-inbound.usecase';

/**
 * Bridges of rooms to chat platforms (our extension, `/v2/room/{room}/bridge`): kept as
 * webhook rows (BridgeRepository), so versioning, delivery, health, disabling, lost access
 * and deletion with the room are the webhooks' own.
 */
@Module({
  // RoomPost: an inbound post goes into the room as every post does.
  imports: [RoomsModule],
  controllers: [BridgesHandlers],
  providers: [BridgeSecrets, CreateBridge, PutBridge, ListBridges, GetBridge, DeleteBridge, ReceiveBridgeInbound],
})
export class BridgesModule {}

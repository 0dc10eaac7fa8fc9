import { Module } from '@nestjs/common';
import { WebhookStepsModule } from '../webhooks/lost-access/webhook-steps.module';
import { RoomsModule } from '../rooms/rooms.module';
import { BridgeSecrets } from './bridge-secrets';
import { BridgesHandlers } from './bridges.handlers';
import { CreateBridge } from './create-bridge/create-bridge.usecase';
import { DeleteBridge } from './delete-bridge/delete-bridge.usecase';
import { EnableBridge } from './enable-bridge/enable-bridge.usecase';
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
  // RoomPost: an inbound post goes into the room as every post does; the webhook steps: enabling checks the creator's access.
  imports: [RoomsModule, WebhookStepsModule],
  controllers: [BridgesHandlers],
  providers: [BridgeSecrets, CreateBridge, PutBridge, ListBridges, GetBridge, DeleteBridge, EnableBridge, ReceiveBridgeInbound],
})
export class BridgesModule {}

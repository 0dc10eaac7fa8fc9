import { Module } from '@nestjs/common';
import { WebhookStepsModule } from '../webhooks/lost-access/webhook-steps.module';
import { BridgeSecrets } from './bridge-secrets';
import { BridgesHandlers } from './bridges.handlers';
import { CreateBridge } from './create-bridge/create-bridge.usecase';
import { DeleteBridge } from './delete-bridge/delete-bridge.usecase';
import { EnableBridge } from './enable-bridge/enable-bridge.usecase';
import { GetBridge } from './get-bridge/get-bridge.usecase';
import { ListBridges } from './list-bridges/list-bridges.usecase';
import { PutBridge } from './put-bridge/put-bridge.usecase';

/**
 * Bridges of rooms to chat platforms (our extension, `/v2/room/{room}/bridge`): kept as
 * webhook rows (BridgeRepository), so versioning, delivery, health, disabling, lost access
 * and deletion with the room are the webhooks' own.
 */
@Module({
  imports: [WebhookStepsModule],
  controllers: [BridgesHandlers],
  providers: [BridgeSecrets, CreateBridge, PutBridge, ListBridges, GetBridge, DeleteBridge, EnableBridge],
})
export class BridgesModule {}

import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { BridgeDeliveriesController } from './bridge-deliveries.controller';
import { BridgesController } from './bridges.controller';
import { BridgeInboundController } from './inbound.controller';
import { InboundLimitGuard } from './inbound-limit.guard';

/**
 * `/v2/room/{room}/bridge`: a room's bridges to chat platforms (our extension), and each
 * bridge's delivery log, enabling and test; `/v2/bridge/inbound/{key}`: their channels' posts.
 */
@Module({
  imports: [V2CoreModule],
  controllers: [BridgesController, BridgeDeliveriesController, BridgeInboundController],
  providers: [InboundLimitGuard],
})
export class V2BridgesModule {}

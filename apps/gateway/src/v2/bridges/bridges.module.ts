import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { BridgeDeliveriesController } from './bridge-deliveries.controller';
import { BridgesController } from './bridges.controller';

/** `/v2/room/{room}/bridge`: a room's bridges to chat platforms (our extension), and each bridge's delivery log, enabling and test. */
@Module({
  imports: [V2CoreModule],
  controllers: [BridgesController, BridgeDeliveriesController],
})
export class V2BridgesModule {}

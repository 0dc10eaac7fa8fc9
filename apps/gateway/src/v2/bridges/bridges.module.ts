import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { BridgesController } from './bridges.controller';

/** `/v2/room/{room}/bridge`: a room's bridges to chat platforms (our extension). */
@Module({
  imports: [V2CoreModule],
  controllers: [BridgesController],
})
export class V2BridgesModule {}

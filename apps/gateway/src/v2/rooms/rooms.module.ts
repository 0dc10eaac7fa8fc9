import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { RoomsController } from './rooms.controller';

/** `/v2/room` and `/v2/room/{room}` (and its topic and statistics). */
@Module({
  imports: [V2CoreModule],
  controllers: [RoomsController],
})
export class V2RoomsModule {}

import { Module } from '@nestjs/common';
import { LiveModule } from '../../live/live.module';
import { V2CoreModule } from '../v2-core.module';
import { RoomEventsController } from './events.controller';

/** `/v2/room/{room}/events`: a room's live events (Server-Sent Events). */
@Module({
  imports: [V2CoreModule, LiveModule],
  controllers: [RoomEventsController],
})
export class V2EventsModule {}

import { Module } from '@nestjs/common';
import { LiveModule } from '../../live/live.module';
import { V2CoreModule } from '../v2-core.module';
import { RoomEventsController } from './events.controller';
import { UserEventsController } from './user-events.controller';

/** `/v2/room/{room}/events`: a room's live events; `/v2/user/{user}/events`: a person's (Server-Sent Events). */
@Module({
  imports: [V2CoreModule, LiveModule],
  controllers: [RoomEventsController, UserEventsController],
})
export class V2EventsModule {}

import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { MembersController } from './members.controller';
import { ParticipantsController } from './participants.controller';

/** `/v2/room/{room}/member`, `/invite` and `/participant`: who may enter a private room, and who is in a room. */
@Module({
  imports: [V2CoreModule],
  controllers: [MembersController, ParticipantsController],
})
export class V2MembersModule {}

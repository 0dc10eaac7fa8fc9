import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { RoomReadController, UserChatsController } from './chats.controller';

/** A person's chats and what they have read (our extension): `/v2/room/{room}/read`, `/v2/user/{user}/read`, `/v2/user/{user}/chats`. */
@Module({
  imports: [V2CoreModule],
  controllers: [RoomReadController, UserChatsController],
})
export class V2ChatsModule {}

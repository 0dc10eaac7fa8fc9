import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { PrivateChatController } from './private-chat.controller';
import { UsersController } from './users.controller';
import { CreateInvitation } from './create-invitation.usecase';

/** `/v2/user`: the users resource and private chat. */
@Module({
  imports: [V2CoreModule],
  controllers: [UsersController, PrivateChatController],
  providers: [CreateInvitation],
})
export class V2UsersModule {}

import { forwardRef, Module } from '@nestjs/common';
import { RoomsModule } from '../rooms/rooms.module';
import { WebhookStepsModule } from '../webhooks/lost-access/webhook-steps.module';
import { Actors } from './actors';
import { CreateUser } from './create-user/create-user.usecase';
import { DeleteUser } from './delete-user/delete-user.usecase';
import { GetPrivateHistory } from './get-private-history/get-private-history.usecase';
import { GetUser } from './get-user/get-user.usecase';
import { ListUsers } from './list-users/list-users.usecase';
import { PrivateMessageRepository } from './private-message.repository';
import { SendPrivateMessage } from './send-private-message/send-private-message.usecase';
import { UpdateUser } from './update-user/update-user.usecase';
import { SessionRepository } from './session.repository';
import { SignIn } from './sign-in/sign-in.usecase';
import { SignOut } from './sign-out/sign-out.usecase';
import { UserRepository } from './user.repository';
import { UsersHandlers } from './users.handlers';

/** Users, their sign-in sessions and one-to-one messages; Actors tells who acts. forwardRef: a deleted user exits their rooms. */
@Module({
  imports: [forwardRef(() => RoomsModule), WebhookStepsModule],
  controllers: [UsersHandlers],
  providers: [
    UserRepository, PrivateMessageRepository, SessionRepository, Actors,
    CreateUser, UpdateUser, DeleteUser, GetUser, ListUsers, SendPrivateMessage, GetPrivateHistory, SignIn, SignOut,
  ],
  exports: [UserRepository, Actors],
})
export class UsersModule {}

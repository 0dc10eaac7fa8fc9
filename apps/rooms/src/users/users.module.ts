import { Module } from '@nestjs/common';
import { WebhookStepsModule } from '../webhooks/lost-access/webhook-steps.module';
import { CreateUser } from './create-user/create-user.usecase';
import { DeleteUser } from './delete-user/delete-user.usecase';
import { GetPrivateHistory } from './get-private-history/get-private-history.usecase';
import { GetUser } from './get-user/get-user.usecase';
import { ListUsers } from './list-users/list-users.usecase';
import { SendPrivateMessage } from './send-private-message/send-private-message.usecase';
import { UpdateUser } from './update-user/update-user.usecase';
import { SignIn } from './sign-in/sign-in.usecase';
import { SignOut } from './sign-out/sign-out.usecase';
import { UsersHandlers } from './users.handlers';
import { AcceptInvitation } from './accept-invitation/accept-invitation.usecase';
import { GetUserHoldings } from './get-user-holdings/get-user-holdings.usecase';
import { CreateInvitation } from './create-invitation/create-invitation.usecase';

/**
 * Users, their sign-in sessions and one-to-one messages. Their repositories and Actors (who
 * acts) come from the RepositoriesModule; a deleted or demoted user's webhooks are the
 * webhook steps' (WebhookStepsModule).
 */
@Module({
  imports: [WebhookStepsModule],
  controllers: [UsersHandlers],
  providers: [
    CreateUser, UpdateUser, DeleteUser, GetUser, ListUsers, SendPrivateMessage, GetPrivateHistory, SignIn, SignOut, CreateInvitation, AcceptInvitation, GetUserHoldings,
  ],
})
export class UsersModule {}

import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import {
  AcceptInvitationV1, CreateUserV1, DeleteUserV1, GetPrivateHistoryV1, GetUserHoldingsV1, GetUserV1, CreateInvitationV1, ListUsersV1, RequestOf,
  SendPrivateMessageV1, SignInV1, SignOutV1, UndeleteUserV1, UpdateUserV1,
} from '@app/contracts';
import { AcceptInvitation } from './accept-invitation/accept-invitation.usecase';
import { GetUserHoldings } from './get-user-holdings/get-user-holdings.usecase';
import { CreateInvitation } from './create-invitation/create-invitation.usecase';
import { CommandPipe } from '../shared/command-pipe';
import { CreateUser } from './create-user/create-user.usecase';
import { DeleteUser } from './delete-user/delete-user.usecase';
import { GetPrivateHistory } from './get-private-history/get-private-history.usecase';
import { GetUser } from './get-user/get-user.usecase';
import { ListUsers } from './list-users/list-users.usecase';
import { SendPrivateMessage } from './send-private-message/send-private-message.usecase';
import { SignIn } from './sign-in/sign-in.usecase';
import { SignOut } from './sign-out/sign-out.usecase';
import { UpdateUser } from './update-user/update-user.usecase';

/** Transport edge: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class UsersHandlers {
  constructor(
    private readonly createUser: CreateUser,
    private readonly updateUser: UpdateUser,
    private readonly deleteUser: DeleteUser,
    private readonly getUser: GetUser,
    private readonly listUsers: ListUsers,
    private readonly sendPrivateMessage: SendPrivateMessage,
    private readonly getPrivateHistory: GetPrivateHistory,
    private readonly signIn: SignIn,
    private readonly signOut: SignOut,
    private readonly createInvitation: CreateInvitation,
    private readonly acceptInvitation: AcceptInvitation,
    private readonly getUserHoldings: GetUserHoldings,
  ) {}

  @MessagePattern(CreateUserV1.pattern)
  create(@Payload(new CommandPipe(CreateUserV1)) c: RequestOf<typeof CreateUserV1>, @Ctx() ctx: CommandContext) { return this.createUser.execute(c, ctx.meta); }

  @MessagePattern(UpdateUserV1.pattern)
  update(@Payload(new CommandPipe(UpdateUserV1)) c: RequestOf<typeof UpdateUserV1>, @Ctx() ctx: CommandContext) { return this.updateUser.execute(c, ctx.meta); }

  @MessagePattern(DeleteUserV1.pattern)
  delete(@Payload(new CommandPipe(DeleteUserV1)) c: RequestOf<typeof DeleteUserV1>, @Ctx() ctx: CommandContext) { return this.deleteUser.execute(c, ctx.meta); }

  @MessagePattern(UndeleteUserV1.pattern)
  undelete(@Payload(new CommandPipe(UndeleteUserV1)) c: RequestOf<typeof UndeleteUserV1>, @Ctx() ctx: CommandContext) { return this.deleteUser.undelete(c, ctx.meta); }

  @MessagePattern(GetUserV1.pattern)
  get(@Payload(new CommandPipe(GetUserV1)) c: RequestOf<typeof GetUserV1>) { return this.getUser.execute(c); }

  @MessagePattern(ListUsersV1.pattern)
  list(@Payload(new CommandPipe(ListUsersV1)) c: RequestOf<typeof ListUsersV1>) { return this.listUsers.execute(c); }

  @MessagePattern(SendPrivateMessageV1.pattern)
  sendPrivate(@Payload(new CommandPipe(SendPrivateMessageV1)) c: RequestOf<typeof SendPrivateMessageV1>, @Ctx() ctx: CommandContext) { return this.sendPrivateMessage.execute(c, ctx.meta); }

  @MessagePattern(GetPrivateHistoryV1.pattern)
  privateHistory(@Payload(new CommandPipe(GetPrivateHistoryV1)) c: RequestOf<typeof GetPrivateHistoryV1>) { return this.getPrivateHistory.execute(c); }

  @MessagePattern(SignInV1.pattern)
  signInUser(@Payload(new CommandPipe(SignInV1)) c: RequestOf<typeof SignInV1>, @Ctx() ctx: CommandContext) { return this.signIn.execute(c, ctx.meta); }

  @MessagePattern(SignOutV1.pattern)
  signOutUser(@Payload(new CommandPipe(SignOutV1)) c: RequestOf<typeof SignOutV1>, @Ctx() ctx: CommandContext) { return this.signOut.execute(c, ctx.meta); }

  @MessagePattern(CreateInvitationV1.pattern)
  invite(@Payload(new CommandPipe(CreateInvitationV1)) c: RequestOf<typeof CreateInvitationV1>, @Ctx() ctx: CommandContext) { return this.createInvitation.execute(c, ctx.meta); }

  @MessagePattern(AcceptInvitationV1.pattern)
  accept(@Payload(new CommandPipe(AcceptInvitationV1)) c: RequestOf<typeof AcceptInvitationV1>, @Ctx() ctx: CommandContext) { return this.acceptInvitation.execute(c, ctx.meta); }

  @MessagePattern(GetUserHoldingsV1.pattern)
  holdings(@Payload(new CommandPipe(GetUserHoldingsV1)) c: RequestOf<typeof GetUserHoldingsV1>) { return this.getUserHoldings.execute(c); }
}

import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { AddMemberV1, InviteUserV1, ListMembersV1, RemoveMemberV1, RequestOf } from '@app/contracts';
import { CommandPipe } from '../../shared/command-pipe';
import { AddMember } from './add-member/add-member.usecase';
import { InviteUser } from './invite-user/invite-user.usecase';
import { ListMembers } from './list-members/list-members.usecase';
import { RemoveMember } from './remove-member/remove-member.usecase';

/** Transport edge of room membership: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class MembersHandlers {
  constructor(
    private readonly addMember: AddMember,
    private readonly removeMember: RemoveMember,
    private readonly listMembers: ListMembers,
    private readonly inviteUser: InviteUser,
  ) {}

  @MessagePattern(AddMemberV1.pattern)
  add(@Payload(new CommandPipe(AddMemberV1)) c: RequestOf<typeof AddMemberV1>, @Ctx() ctx: CommandContext) { return this.addMember.execute(c, ctx.meta); }

  @MessagePattern(RemoveMemberV1.pattern)
  remove(@Payload(new CommandPipe(RemoveMemberV1)) c: RequestOf<typeof RemoveMemberV1>, @Ctx() ctx: CommandContext) { return this.removeMember.execute(c, ctx.meta); }

  @MessagePattern(ListMembersV1.pattern)
  list(@Payload(new CommandPipe(ListMembersV1)) c: RequestOf<typeof ListMembersV1>) { return this.listMembers.execute(c); }

  @MessagePattern(InviteUserV1.pattern)
  invite(@Payload(new CommandPipe(InviteUserV1)) c: RequestOf<typeof InviteUserV1>, @Ctx() ctx: CommandContext) { return this.inviteUser.execute(c, ctx.meta); }
}

import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { CreateUserTokenV1, ListUserTokensV1, RequestOf, ResolveTokenV1, RevokeUserTokenV1 } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { CreateUserToken } from './create-user-token/create-user-token.usecase';
import { ListUserTokens } from './list-user-tokens/list-user-tokens.usecase';
import { ResolveToken } from './resolve-token/resolve-token.usecase';
import { RevokeUserToken } from './revoke-user-token/revoke-user-token.usecase';

/**
 * Transport edge of tokens: the gateways resolve them, and users list, make and revoke
 * their own through the tokens API; the CLI makes and revokes any in-process.
 */
@Controller()
export class TokensHandlers {
  constructor(
    private readonly resolveToken: ResolveToken,
    private readonly listUserTokens: ListUserTokens,
    private readonly createUserToken: CreateUserToken,
    private readonly revokeUserToken: RevokeUserToken,
  ) {}

  @MessagePattern(ResolveTokenV1.pattern)
  resolve(@Payload(new CommandPipe(ResolveTokenV1)) c: RequestOf<typeof ResolveTokenV1>) { return this.resolveToken.execute(c); }

  @MessagePattern(ListUserTokensV1.pattern)
  list(@Payload(new CommandPipe(ListUserTokensV1)) c: RequestOf<typeof ListUserTokensV1>) { return this.listUserTokens.execute(c); }

  @MessagePattern(CreateUserTokenV1.pattern)
  create(@Payload(new CommandPipe(CreateUserTokenV1)) c: RequestOf<typeof CreateUserTokenV1>, @Ctx() ctx: CommandContext) { return this.createUserToken.execute(c, ctx.meta); }

  @MessagePattern(RevokeUserTokenV1.pattern)
  revoke(@Payload(new CommandPipe(RevokeUserTokenV1)) c: RequestOf<typeof RevokeUserTokenV1>, @Ctx() ctx: CommandContext) { return this.revokeUserToken.execute(c, ctx.meta); }
}

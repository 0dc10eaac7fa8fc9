import { Module } from '@nestjs/common';
import { CreateToken } from './create-token/create-token.usecase';
import { CreateUserToken } from './create-user-token/create-user-token.usecase';
import { ListUserTokens } from './list-user-tokens/list-user-tokens.usecase';
import { RevokeUserToken } from './revoke-user-token/revoke-user-token.usecase';
import { ListTokens } from './list-tokens/list-tokens.usecase';
import { ResolveToken } from './resolve-token/resolve-token.usecase';
import { RevokeToken } from './revoke-token/revoke-token.usecase';
import { TokensHandlers } from './tokens.handlers';

/** API tokens: resolved for the gateways; listed, made and revoked by users (the tokens API) and by the CLI (cli/token-commands.ts). */
@Module({
  controllers: [TokensHandlers],
  providers: [ResolveToken, CreateToken, ListTokens, RevokeToken, ListUserTokens, CreateUserToken, RevokeUserToken],
})
export class TokensModule {}

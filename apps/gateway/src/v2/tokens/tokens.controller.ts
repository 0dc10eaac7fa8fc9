import { Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { generateApiToken, hashApiToken } from '@app/common';
import { Actor, pathId, CreateUserTokenV1, ListUserTokensV1, RevokeUserTokenV1, v2Links } from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { TokenAuthenticator } from '../../shared/auth/token-authenticator';
import { Notes, RequireSessionOrScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentUserId, RequestTrace } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { PageListQuery, pageListQuery } from '../http/pagination';
import { V2Body, V2Query } from '../http/validation';
import { CreateTokenBody, createTokenBody, createdTokenResponse, tokenListResponse } from './tokens.schemas';
import { toV2TokenItem } from './tokens.presenter';

/**
 * `/v2/token` (our extension): the console's API access page. A signed-in user, or a
 * personal token with admin_group, lists, makes and revokes their own tokens; a group
 * admin also v1 admin and notification tokens.
 */
@V2Controller('token')
export class TokensController extends V2Resource {
  @Inject() private readonly tokens!: TokenAuthenticator;

  @Get()
  @Summary('List your tokens (group admins: v1 tokens too)')
  @RequireSessionOrScopes('admin_group')
  @ResponseSchema(tokenListResponse)
  @Notes('Our extension. Your personal tokens; a group admin also sees every v1 admin and notification token. Never the clear token. Tokens of no user (room, add-on) get 403.')
  async list(
    @CurrentUserId() userId: number, @V2Query(pageListQuery) q: PageListQuery, @Query() raw: Record<string, unknown>,
    @RequestTrace() trace?: Context,
  ) {
    // The rooms service answers them all (a user has few; a group admin's v1 tokens are tens): the page is cut here.
    const { tokens } = await this.rooms.send(ListUserTokensV1, { userId }, trace);
    return this.page(q, raw, v2Links('').tokens, async (w) => tokens.slice(w.startIndex, w.startIndex + w.limit), toV2TokenItem);
  }

  /** The clear token is made here and answered once; the rooms service gets its hash. */
  @Post()
  @Summary('Create a token (its clear text is shown once)')
  @HttpCode(201)
  @RequireSessionOrScopes('admin_group')
  @ResponseSchema(createdTokenResponse)
  @Notes('Our extension. `kind` personal (default) takes `scopes` (at least one; admin_group for group admins only, 403 otherwise; an unknown one is a 400 naming scopes); admin and notification (v1 tokens, no scopes) for group admins only (403). `token` is the clear token, shown this once; it works at once.')
  async create(@CurrentUserId() userId: number, @V2Body(createTokenBody) body: CreateTokenBody, @CurrentActor() actor: Actor) {
    const clear = generateApiToken();
    const { token } = await this.rooms.send(CreateUserTokenV1, { actor, userId, ...body, tokenHash: hashApiToken(clear) });
    return { ...toV2TokenItem(token), token: clear };
  }

  @Delete(':id')
  @Summary('Revoke a token (refused at once by every gateway)')
  @HttpCode(204)
  @RequireSessionOrScopes('admin_group')
  @Notes('Our extension. Every gateway replica refuses the token before this answers. A token you may not see (someone else\'s) is 404.')
  async revoke(@CurrentUserId() userId: number, @Param('id') id: string, @CurrentActor() actor: Actor): Promise<void> {
    const tokenId = pathId(id);
    if (tokenId === null) throw new ApiError(404, `Token ${id.slice(0, 50)} not found`);
    await this.rooms.send(RevokeUserTokenV1, { actor, userId, tokenId });
    this.tokens.revoked(tokenId);
  }
}

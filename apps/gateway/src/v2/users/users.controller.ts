import { Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import {
  Actor, AuthenticatedToken, confinedTokenRefusal, CreateUserV1, DeleteUserV1, GetUserV1, ListUsersV1, UpdateUserV1,
  UserRef, v2Links,
} from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentToken, RequestTrace, UserRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { ListUsersQuery, listUsersQuery, UserBody, userBody, userFieldsOf } from './users.schemas';
import { toV2CreatedUser, toV2User, toV2UserItem } from './users.presenter';

/** The users resource: create, list, view, replace, delete. */
@V2Controller('user')
export class UsersController extends V2Resource {
  @Post()
  @Summary('Create a user')
  @HttpCode(201)
  @RequireScopes('admin_group')
  async create(@V2Body(userBody) body: UserBody, @RequestTrace() trace?: Context) {
    return toV2CreatedUser((await this.rooms.send(CreateUserV1, userFieldsOf(body), trace)).user, this.base);
  }

  @Get()
  @Summary('List users')
  @RequireScopes('view_group')
  list(@V2Query(listUsersQuery) q: ListUsersQuery, @Query() raw: Record<string, unknown>, @RequestTrace() trace?: Context) {
    return this.page(q, raw, v2Links('').users, async ({ startIndex, limit }) => (await this.rooms.send(ListUsersV1, {
      includeDeleted: q['include-deleted'], includeGuests: q['include-guests'], offset: startIndex, limit,
    }, trace)).users, toV2UserItem);
  }

  @Get(':user')
  @Summary('Get a user by id, e-mail address or @mention')
  @RequireScopes('view_group')
  async get(@UserRefParam() user: UserRef, @CurrentToken() token: AuthenticatedToken, @RequestTrace() trace?: Context) {
    // A user's record (e-mail address, presence) is the group's: a token confined to one room lists names only (GET /v2/user).
    if (token.roomId !== null) throw new ApiError(403, confinedTokenRefusal(token.roomId, "read a user's record (e-mail address, presence)"));
    return toV2User((await this.rooms.send(GetUserV1, { user }, trace)).user, this.base);
  }

  /** Replaces the user: fields left out go back to their defaults. */
  @Put(':user')
  @Summary('Replace a user (absent optional fields reset)')
  @HttpCode(204)
  @RequireScopes('admin_group')
  async replace(@UserRefParam() user: UserRef, @V2Body(userBody) body: UserBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(UpdateUserV1, { actor, user, replace: true, ...userFieldsOf(body) });
  }

  @Delete(':user')
  @Summary('Delete a user (room_exit from every room)')
  @HttpCode(204)
  @RequireScopes('admin_group')
  async delete(@UserRefParam() user: UserRef, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(DeleteUserV1, { actor, user });
  }
}

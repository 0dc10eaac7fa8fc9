import { Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { CreateUserV1, DeleteUserV1, GetUserV1, ListUsersV1, parseUserRef, UpdateUserV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { pageOf, pageResponse, probeLimit, splitProbe } from '../http/pagination';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { V2Body, V2Query } from '../http/validation';
import { ListUsersQuery, listUsersQuery, UserBody, userBody, userFieldsOf } from './users.schemas';
import { toV2CreatedUser, toV2User, toV2UserItem } from './users.presenter';

/** `{user}`: an id, an e-mail address or an @mention name. */
export const userRefOf = (raw: string) => parseUserRef(raw, { mentions: true });

/** The users resource: create, list, view, replace, delete. */
@V2Controller('user')
export class UsersController {
  private readonly base: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Post()
  @Summary('Create a user')
  @HttpCode(201)
  @RequireScopes('admin_group')
  async create(@V2Body(userBody) body: UserBody) {
    const { user } = await this.rooms.send(CreateUserV1, userFieldsOf(body));
    return toV2CreatedUser(user, this.base);
  }

  @Get()
  @Summary('List users')
  @RequireScopes('view_group')
  async list(@V2Query(listUsersQuery) q: ListUsersQuery, @Query() raw: Record<string, unknown>) {
    const page = pageOf(q);
    const { users } = await this.rooms.send(ListUsersV1, {
      includeDeleted: q['include-deleted'], includeGuests: q['include-guests'], offset: page.startIndex, limit: probeLimit(page),
    });
    const { items, hasMore } = splitProbe(users, page);
    return pageResponse(items.map((u) => toV2UserItem(u, this.base)), page, hasMore, `${this.base}/v2/user`, raw);
  }

  @Get(':user')
  @Summary('Get a user by id, e-mail address or @mention')
  @RequireScopes('view_group')
  async get(@Param('user') user: string) {
    return toV2User((await this.rooms.send(GetUserV1, { user: userRefOf(user) })).user, this.base);
  }

  /** Replaces the user: fields left out go back to their defaults. */
  @Put(':user')
  @Summary('Replace a user (absent optional fields reset)')
  @HttpCode(204)
  @RequireScopes('admin_group')
  async replace(@Param('user') user: string, @V2Body(userBody) body: UserBody): Promise<void> {
    await this.rooms.send(UpdateUserV1, { user: userRefOf(user), replace: true, ...userFieldsOf(body) });
  }

  @Delete(':user')
  @Summary('Delete a user (room_exit from every room)')
  @HttpCode(204)
  @RequireScopes('admin_group')
  async delete(@Param('user') user: string): Promise<void> {
    await this.rooms.send(DeleteUserV1, { user: userRefOf(user) });
  }
}

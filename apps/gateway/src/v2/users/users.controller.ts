import { Delete, Get, Header, HttpCode, Inject, Post, Put, Query } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import {
  Actor, AuthenticatedToken, confinedTokenRefusal, CreateUserV1, DeleteUserV1, GetUserHoldingsV1, GetUserV1, ListUsersV1, UpdateUserV1,
  UserRef, v2Links,
} from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import { Notes, OtherAnswers, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentToken, RequestTrace, UserRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { ListUsersQuery, listUsersQuery, UserBody, userBody, userFieldsOf, holdingsResponse, invitationResponse } from './users.schemas';
import { toV2CreatedUser, toV2Holdings, toV2User, toV2UserItem } from './users.presenter';
import { CreateInvitation } from './create-invitation.usecase';

/** The users resource: create, list, view, replace, delete. */
@V2Controller('user')
export class UsersController extends V2Resource {
  constructor(rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig, private readonly invitations: CreateInvitation) {
    super(rooms, config);
  }

  @Post()
  @Summary('Create a user')
  @HttpCode(201)
  @RequireScopes('admin_group')
  async create(@V2Body(userBody) body: UserBody, @CurrentActor() actor: Actor) {
    return toV2CreatedUser((await this.rooms.send(CreateUserV1, { ...userFieldsOf(body), actor })).user, this.base);
  }

  @Get()
  @Summary('List users')
  @RequireScopes('view_group')
  list(@V2Query(listUsersQuery) q: ListUsersQuery, @Query() raw: Record<string, unknown>, @CurrentToken() token: AuthenticatedToken, @RequestTrace() trace?: Context) {
    // The whole record is the group's, as for GET /v2/user/{user}: a token confined to one room lists names only.
    if (q.expand === 'items' && token.roomId !== null) throw new ApiError(403, confinedTokenRefusal(token.roomId, "read users' records (e-mail address, presence)"));
    return this.page(q, raw, v2Links('').users, async ({ startIndex, limit }) => (await this.rooms.send(ListUsersV1, {
      includeDeleted: q['include-deleted'], includeGuests: q['include-guests'], offset: startIndex, limit,
    }, trace)).users, q.expand === 'items' ? toV2User : toV2UserItem);
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

  @Post(':user/invitation')
  @Summary('Invite a user to choose their password (a link, valid 7 days)')
  @HttpCode(201)
  @RequireScopes('admin_group')
  @ResponseSchema(invitationResponse)
  @Notes('Our extension. Group admins (and add-ons installed group-wide with admin_group). Answers a link to the web console (`<PUBLIC_BASE_URL>/#/invitation/<secret>`) where the person chooses their password and is signed in (POST /v2/invitation/{token}). The secret is random (about 238 bits), kept only as its SHA-256, used once, and expires after 7 days; a new invitation replaces the user\'s previous one. Give it to the person yourself: the service sends no e-mail. The audit log records `user.invited` (never the link). A user made by POST /v2/user without a password (one is generated) can be invited this way. Cache-Control: no-store.')
  @OtherAnswers({ 400: 'The user is a guest.', 404: 'No live user by that id, e-mail address or @mention name.' })
  @Header('Cache-Control', 'no-store')
  invite(@UserRefParam() user: UserRef, @CurrentActor() actor: Actor) { return this.invitations.execute(actor, user); }

  @Get(':user/holdings')
  @Summary('What deleting or demoting a user would take from them')
  @RequireScopes('view_group')
  @ResponseSchema(holdingsResponse)
  @Notes('Our extension. Group admins, and the user themself (403 for anyone else). Counts what they hold now (rooms owned, private rooms, live API tokens and sessions, enabled webhooks and bridges) by the rules DELETE /v2/user/{user} and a demotion (PUT with is_group_admin false) apply, and says in sentences what each would do (`on_delete`, `on_demote`), for a confirmation. A count, not a promise: the change itself judges again.')
  @OtherAnswers({ 403: 'Neither a group admin nor the user themself.', 404: 'No live user by that id, e-mail address or @mention name.' })
  async holdings(@UserRefParam() user: UserRef, @CurrentActor() actor: Actor) {
    return toV2Holdings((await this.rooms.send(GetUserHoldingsV1, { actor, user })).holdings);
  }
}

import { Body, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import {
  Actor, AddMemberV1, InviteUserV1, ListMembersV1, parseRoomRef, parseUserRef, RemoveMemberV1,
} from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { pageOf, pageResponse, probeLimit, splitProbe } from '../http/pagination';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { V2Query, ZodBodyPipe } from '../http/validation';
import { toV2UserItem } from '../users/users.presenter';
import { InviteBody, inviteBody, UserListQuery, userListQuery } from './members.schemas';

/** `{user}` of v2 paths: an id, an e-mail address or an @mention name. */
export const userRefOf = (raw: string) => parseUserRef(raw, { mentions: true });

/** A POST without a body is an invitation without a reason. */
class OptionalBodyPipe<S extends ZodTypeAny> extends ZodBodyPipe<S> {
  override transform(value: unknown): z.output<S> {
    return super.transform(value === undefined || value === '' ? {} : value);
  }
}

/**
 * Members of private rooms (who may enter them) and invitations. Membership is not part of
 * the Room object: changing it keeps the room's version.
 */
@V2Controller('room')
export class MembersController {
  private readonly base: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Get(':room/member')
  @Summary('List the members of a private room')
  @RequireScopes('view_group', 'view_room')
  async list(@Param('room') room: string, @V2Query(userListQuery) q: UserListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    const page = pageOf(q);
    const { users } = await this.rooms.send(ListMembersV1, { actor, room: parseRoomRef(room), startIndex: page.startIndex, limit: probeLimit(page) });
    const { items, hasMore } = splitProbe(users, page);
    return pageResponse(items.map((u) => toV2UserItem(u, this.base)), page, hasMore, `${this.base}/v2/room/${encodeURIComponent(room)}/member`, raw);
  }

  @Put(':room/member/:user')
  @Summary('Add a member to a private room')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async add(@Param('room') room: string, @Param('user') user: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(AddMemberV1, { actor, room: parseRoomRef(room), user: userRefOf(user) });
  }

  @Delete(':room/member/:user')
  @Summary('Remove a member from a private room (room_exit)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async remove(@Param('room') room: string, @Param('user') user: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(RemoveMemberV1, { actor, room: parseRoomRef(room), user: userRefOf(user) });
  }

  /** Makes the user a member of a private room, hence the scopes of member changes. */
  @Post(':room/invite/:user')
  @Summary('Invite a user to a room')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async invite(@Param('room') room: string, @Param('user') user: string, @Body(new OptionalBodyPipe(inviteBody)) body: InviteBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(InviteUserV1, { actor, room: parseRoomRef(room), user: userRefOf(user), ...(body.reason !== undefined ? { reason: body.reason } : {}) });
  }
}

import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Actor, AddMemberV1, InviteUserV1, ListMembersV1, RemoveMemberV1, RoomRef, UserRef, v2Links } from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, RoomRefParam, UserRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Query, ZodBodyPipe } from '../http/validation';
import { toV2UserItem } from '../users/users.presenter';
import { InviteBody, inviteBody, UserListQuery, userListQuery } from './members.schemas';

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
export class MembersController extends V2Resource {
  @Get(':room/member')
  @Summary('List the members of a private room')
  @RequireScopes('view_group', 'view_room')
  list(@RoomRefParam() room: RoomRef, @Param('room') name: string, @V2Query(userListQuery) q: UserListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').members(name),
      async (w) => (await this.rooms.send(ListMembersV1, { actor, room, ...w })).users, toV2UserItem);
  }

  @Put(':room/member/:user')
  @Summary('Add a member to a private room')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async add(@RoomRefParam() room: RoomRef, @UserRefParam() user: UserRef, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(AddMemberV1, { actor, room, user });
  }

  @Delete(':room/member/:user')
  @Summary('Remove a member from a private room (room_exit)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async remove(@RoomRefParam() room: RoomRef, @UserRefParam() user: UserRef, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(RemoveMemberV1, { actor, room, user });
  }

  /** Makes the user a member of a private room, hence the scopes of member changes. */
  @Post(':room/invite/:user')
  @Summary('Invite a user to a room')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async invite(@RoomRefParam() room: RoomRef, @UserRefParam() user: UserRef, @Body(new OptionalBodyPipe(inviteBody)) body: InviteBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(InviteUserV1, { actor, room, user, ...(body.reason !== undefined ? { reason: body.reason } : {}) });
  }
}

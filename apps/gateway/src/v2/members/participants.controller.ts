import { Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { Actor, AuthenticatedToken, EnterRoomV1, ExitRoomV1, ListParticipantsV1, RoomRef, UserRef, v2Links } from '@app/contracts';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentToken, RoomRefParam, UserRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Query } from '../http/validation';
import { toV2UserItem } from '../users/users.presenter';
import { UserListQuery, userListQuery } from './members.schemas';

/** A token that may make any user enter or exit a room; others move only their own user. */
export const movesAnyone = (token: AuthenticatedToken): boolean =>
  token.scopes.includes('admin_room') || token.scopes.includes('admin_group');

/**
 * Who is in a room (presence). Entering and exiting need no scope: the rooms service lets
 * a user move themselves, and an administrator move anyone (the same commands a live
 * connection will send).
 */
@V2Controller('room')
export class ParticipantsController extends V2Resource {
  @Get(':room/participant')
  @Summary('List who is in a room now')
  @RequireScopes('view_group', 'view_room')
  list(@RoomRefParam() room: RoomRef, @Param('room') name: string, @V2Query(userListQuery) q: UserListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').participants(name),
      async (w) => (await this.rooms.send(ListParticipantsV1, { actor, room, ...w })).users, toV2UserItem);
  }

  @Put(':room/participant/:user')
  @Summary('Enter a room (room_enter)')
  @HttpCode(204)
  async enter(@RoomRefParam() room: RoomRef, @UserRefParam() user: UserRef, @CurrentActor() actor: Actor, @CurrentToken() token: AuthenticatedToken): Promise<void> {
    await this.rooms.send(EnterRoomV1, { actor, room, user, asAdmin: movesAnyone(token) });
  }

  @Delete(':room/participant/:user')
  @Summary('Exit a room (room_exit)')
  @HttpCode(204)
  async exit(@RoomRefParam() room: RoomRef, @UserRefParam() user: UserRef, @CurrentActor() actor: Actor, @CurrentToken() token: AuthenticatedToken): Promise<void> {
    await this.rooms.send(ExitRoomV1, { actor, room, user, asAdmin: movesAnyone(token) });
  }
}

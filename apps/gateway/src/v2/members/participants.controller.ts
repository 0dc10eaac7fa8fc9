import { Delete, Get, HttpCode, Inject, Param, Put, Query } from '@nestjs/common';
import { Actor, AuthenticatedToken, EnterRoomV1, ExitRoomV1, ListParticipantsV1, parseRoomRef } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { pageOf, pageResponse, probeLimit, splitProbe } from '../http/pagination';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentToken } from '../http/v2-request';
import { V2Query } from '../http/validation';
import { toV2UserItem } from '../users/users.presenter';
import { userRefOf } from './members.controller';
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
export class ParticipantsController {
  private readonly base: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Get(':room/participant')
  @Summary('List who is in a room now')
  @RequireScopes('view_group', 'view_room')
  async list(@Param('room') room: string, @V2Query(userListQuery) q: UserListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    const page = pageOf(q);
    const { users } = await this.rooms.send(ListParticipantsV1, { actor, room: parseRoomRef(room), startIndex: page.startIndex, limit: probeLimit(page) });
    const { items, hasMore } = splitProbe(users, page);
    return pageResponse(items.map((u) => toV2UserItem(u, this.base)), page, hasMore, `${this.base}/v2/room/${encodeURIComponent(room)}/participant`, raw);
  }

  @Put(':room/participant/:user')
  @Summary('Enter a room (room_enter)')
  @HttpCode(204)
  async enter(@Param('room') room: string, @Param('user') user: string, @CurrentActor() actor: Actor, @CurrentToken() token: AuthenticatedToken): Promise<void> {
    await this.rooms.send(EnterRoomV1, { actor, room: parseRoomRef(room), user: userRefOf(user), asAdmin: movesAnyone(token) });
  }

  @Delete(':room/participant/:user')
  @Summary('Exit a room (room_exit)')
  @HttpCode(204)
  async exit(@Param('room') room: string, @Param('user') user: string, @CurrentActor() actor: Actor, @CurrentToken() token: AuthenticatedToken): Promise<void> {
    await this.rooms.send(ExitRoomV1, { actor, room: parseRoomRef(room), user: userRefOf(user), asAdmin: movesAnyone(token) });
  }
}

import { createParamDecorator, Delete, ExecutionContext, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Actor, CreateBridgeV1, DeleteBridgeV1, GetBridgeV1, ListBridgesV1, pathId, PutBridgeV1, RoomRef, v2Links } from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { Notes, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, pathParam, RoomRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { toV2Bridge } from './bridges.presenter';
import { BridgeBody, bridgeBody, BridgeListQuery, bridgeListQuery, bridgePageSchema, bridgeSchema, bridgeSpecOf } from './bridges.schemas';

/** `{id}` of the path as a bridge id; anything else names no bridge (404). Its deliveries' routes take it too. */
export const BridgeIdParam = createParamDecorator((_: unknown, ctx: ExecutionContext): number => {
  const raw = pathParam(ctx, 'id');
  const id = pathId(raw);
  if (id === null) throw new ApiError(404, `Bridge ${raw.slice(0, 100)} not found`);
  return id;
});

const INBOUND_NOTE = 'With `inbound.enabled`, the answer carries `inbound.url` (for the platform\'s outgoing webhook): shown this once, '
  + 'and again only when a PUT makes a new one (`inbound.rotate`, or inbound enabled for the first time). Never the Matrix access token.';

/**
 * A room's bridges to chat platforms (our extension of the v2 API): kept and delivered as
 * webhooks are, managed under the webhook rule (its creator, the room's owner and group
 * admins), with `admin_room`.
 */
@V2Controller('room')
export class BridgesController extends V2Resource {
  @Post(':room/bridge')
  @Summary('Bridge a room to a channel of Slack, Mattermost, Discord, Teams, Google Chat, Rocket.Chat or Matrix')
  @Notes(INBOUND_NOTE)
  @HttpCode(201)
  @RequireScopes('admin_room')
  @ResponseSchema(bridgeSchema)
  async create(@RoomRefParam() room: RoomRef, @V2Body(bridgeBody) b: BridgeBody, @CurrentActor() actor: Actor) {
    const { bridge, inboundKey } = await this.rooms.send(CreateBridgeV1, { actor, room, ...bridgeSpecOf(b) });
    return toV2Bridge(bridge, this.base, inboundKey);
  }

  @Get(':room/bridge')
  @Summary('List the bridges of a room, with their health')
  @RequireScopes('admin_room')
  @ResponseSchema(bridgePageSchema)
  list(@RoomRefParam() room: RoomRef, @Param('room') name: string, @V2Query(bridgeListQuery) q: BridgeListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').bridges(name),
      async (w) => (await this.rooms.send(ListBridgesV1, { actor, room, ...w })).bridges, (b, base) => toV2Bridge(b, base));
  }

  @Get(':room/bridge/:id')
  @Summary('Get a bridge of a room, with its health')
  @RequireScopes('admin_room')
  @ResponseSchema(bridgeSchema)
  async get(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @CurrentActor() actor: Actor) {
    return toV2Bridge((await this.rooms.send(GetBridgeV1, { actor, room, id })).bridge, this.base);
  }

  @Put(':room/bridge/:id')
  @Summary('Replace a bridge (its kind stays; inbound secrets left out are kept; inbound.rotate makes a new inbound URL)')
  @Notes(INBOUND_NOTE)
  @RequireScopes('admin_room')
  @ResponseSchema(bridgeSchema)
  async put(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @V2Body(bridgeBody) b: BridgeBody, @CurrentActor() actor: Actor) {
    const { bridge, inboundKey } = await this.rooms.send(PutBridgeV1, { actor, room, id, ...bridgeSpecOf(b) });
    return toV2Bridge(bridge, this.base, inboundKey);
  }

  @Delete(':room/bridge/:id')
  @Summary('Delete a bridge of a room')
  @HttpCode(204)
  @RequireScopes('admin_room')
  async delete(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(DeleteBridgeV1, { actor, room, id });
  }
}

import { createParamDecorator, ExecutionContext, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  Actor, BridgeView, DeliveryStatsV1, EnableBridgeV1, GetBridgeV1, GetDeliveryV1, ListDeliveriesV1, RecoverDeliveriesV1, RedeliverV1, ResendAction,
  resendRefusal, RoomRef, TestBridgeV1, v2Links,
} from '@app/contracts';
import { traceOfActor } from '@app/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { DispatcherClient } from '../../shared/dispatcher-client';
import { RoomsClient } from '../../shared/rooms-client';
import { Notes, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, pathParam, RoomRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { encodeCursor } from '../webhooks/delivery-cursor';
import { afterAccess, DELIVERY_STATS_NOTES, deliveryIdOf, deliveryStatsLink } from '../webhooks/webhook-deliveries.controller';
import { toV2DeliveryItem, toV2DeliveryStats } from '../webhooks/webhook-deliveries.presenter';
import {
  cursorOf, DeliveryListQuery, deliveryListQuery, DeliveryStatsQuery, deliveryStatsQuery, deliveryStatsResponse, filtersOf, RecoverBody, recoverBody,
  statsCommandOf,
} from '../webhooks/webhook-deliveries.schemas';
import { toV2BridgeDelivery, toV2BridgeTest } from './bridge-deliveries.presenter';
import { bridgeTestSchema } from './bridge-deliveries.schemas';
import { BridgeIdParam } from './bridges.controller';
import { bridgeUrl } from './bridges.presenter';

const DeliveryIdParam = createParamDecorator((_: unknown, ctx: ExecutionContext): string => deliveryIdOf(pathParam(ctx, 'delivery')));

/** 400 for a redeliver or recover of a disabled bridge, decided from the bridge the access check read (as for a webhook). */
function refuseIfDisabled(bridge: BridgeView, action: ResendAction): void {
  const refusal = resendRefusal(bridge, action, `POST ${v2Links('').bridge(bridge.roomId, bridge.id)}/enable`, 'Bridge');
  if (refusal) throw new ApiError(400, refusal);
}

/**
 * What a webhook has besides its registration, under the bridge's own URL (our extension):
 * its delivery log, one more attempt of a delivery, failed ones sent again, enabling it
 * again, and a test post. Access is the bridge's (`admin_room`, and GET of the bridge: the
 * webhook rule; the rooms service answers 404 to whoever may not manage it, and for a
 * webhook's id); then the webhook dispatchers answer, as they do for a webhook.
 */
@V2Controller('room')
export class BridgeDeliveriesController extends V2Resource {
  constructor(rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig, private readonly dispatcher: DispatcherClient) {
    super(rooms, config);
  }

  @Get(':room/bridge/:id/delivery')
  @Summary('List the deliveries of a bridge, newest first (filters: status, event, since; links.next pages by cursor)')
  @RequireScopes('admin_room')
  async list(
    @RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @Param('room') name: string,
    @V2Query(deliveryListQuery) q: DeliveryListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor,
  ) {
    const access = this.visibleBridge(actor, room, id);
    let self = '';
    return this.page(q, raw, v2Links('').bridgeDeliveries(name, id),
      async (w) => {
        const command = { webhookId: id, ...filtersOf(q), ...cursorOf(q), ...w };
        const [{ bridge }, { deliveries }] = await afterAccess(access, this.dispatcher.send(ListDeliveriesV1, command, traceOfActor(actor)));
        self = bridgeUrl(bridge, this.base);
        return deliveries;
      },
      (d) => toV2DeliveryItem(d, self),
      { param: 'after', after: (d) => (d.position ? encodeCursor(d.position) : undefined) });
  }

  @Get(':room/bridge/:id/delivery-stats')
  @Summary('Count the deliveries of a bridge per hour or day since a time (delivered, retried, failed, pending), with their latency (p50, p99)')
  @RequireScopes('admin_room')
  @ResponseSchema(deliveryStatsResponse)
  @Notes(DELIVERY_STATS_NOTES)
  async stats(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @V2Query(deliveryStatsQuery) q: DeliveryStatsQuery, @CurrentActor() actor: Actor) {
    const [{ bridge }, { stats }] = await afterAccess(this.visibleBridge(actor, room, id),
      this.dispatcher.send(DeliveryStatsV1, statsCommandOf(id, q), traceOfActor(actor)));
    return toV2DeliveryStats(stats, deliveryStatsLink(bridgeUrl(bridge, this.base), stats.since, stats.bucket));
  }

  @Get(':room/bridge/:id/delivery/:delivery')
  @Summary('Get a delivery of a bridge: the request as sent (its URL masked), every attempt, the platform\'s answer')
  @RequireScopes('admin_room')
  async get(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @DeliveryIdParam() delivery: string, @CurrentActor() actor: Actor) {
    const [{ bridge }, found] = await afterAccess(this.visibleBridge(actor, room, id),
      this.dispatcher.send(GetDeliveryV1, { delivery, webhookId: id }, traceOfActor(actor)));
    return toV2BridgeDelivery(found.delivery, bridgeUrl(bridge, this.base));
  }

  @Post(':room/bridge/:id/delivery/:delivery/redeliver')
  @Summary('Make one more attempt of a delivery of a bridge now (of one not yet ended: 400, its lane sends it in its turn; of a disabled bridge: 400, enable it first)')
  @HttpCode(202)
  @RequireScopes('admin_room')
  async redeliver(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @DeliveryIdParam() delivery: string, @CurrentActor() actor: Actor) {
    const { bridge } = await this.visibleBridge(actor, room, id);
    refuseIfDisabled(bridge, 'redeliver');
    await this.dispatcher.send(RedeliverV1, { delivery, webhookId: bridge.id }, traceOfActor(actor));
    return {};
  }

  @Post(':room/bridge/:id/recover')
  @Summary('Send again every failed delivery of a bridge created since a time, oldest first (of a disabled bridge: 400, enable it first)')
  @HttpCode(202)
  @RequireScopes('admin_room')
  async recover(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @V2Body(recoverBody) b: RecoverBody, @CurrentActor() actor: Actor) {
    const { bridge } = await this.visibleBridge(actor, room, id);
    refuseIfDisabled(bridge, 'recover');
    return this.dispatcher.send(RecoverDeliveriesV1, { webhookId: bridge.id, since: b.since }, traceOfActor(actor));
  }

  @Post(':room/bridge/:id/enable')
  @Summary('Enable a bridge again and reset its health (what it missed while disabled is not sent)')
  @HttpCode(204)
  @RequireScopes('admin_room')
  async enable(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(EnableBridgeV1, { actor, room, id });
  }

  @Post(':room/bridge/:id/test')
  @Summary('Post "Bridge test from {room}" through the bridge now and answer what the platform said (recorded in no delivery log)')
  @HttpCode(200)
  @RequireScopes('admin_room')
  @ResponseSchema(bridgeTestSchema)
  async test(@RoomRefParam() room: RoomRef, @BridgeIdParam() id: number, @CurrentActor() actor: Actor) {
    const { bridge, roomName } = await this.visibleBridge(actor, room, id);
    return toV2BridgeTest(await this.dispatcher.send(TestBridgeV1, { bridgeId: bridge.id, roomName }, traceOfActor(actor)));
  }

  /** The bridge, when the actor may manage it: the access rules of GET .../bridge/{id}, asked of the rooms service. */
  private visibleBridge(actor: Actor, room: RoomRef, id: number) {
    return this.rooms.send(GetBridgeV1, { actor, room, id });
  }
}

import { createParamDecorator, ExecutionContext, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  Actor, deliveryField, DeliveryStatsV1, GetDeliveryV1, GetWebhookV1, ListDeliveriesV1, RecoverDeliveriesV1, RedeliverV1, ResendAction,
  resendRefusal, RoomRef, v2Links, WebhookRef, WebhookView,
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
import {
  cursorOf, DeliveryListQuery, deliveryListQuery, DeliveryStatsQuery, deliveryStatsQuery, deliveryStatsResponse, filtersOf, RecoverBody, recoverBody,
  statsCommandOf,
} from './webhook-deliveries.schemas';
import { encodeCursor } from './delivery-cursor';
import { toV2Delivery, toV2DeliveryItem, toV2DeliveryStats } from './webhook-deliveries.presenter';
import { WebhookIdParam } from './webhooks.controller';
import { webhookUrl } from './webhooks.presenter';

/**
 * A read made while access to it is checked (the two commands go to different services, so a
 * request waits for the slower, not for both in turn), answered only once access is granted:
 * a refusal is the answer, whatever the read found or however it failed. Reads only: what
 * changes anything (redeliver, recover) is sent once access is granted.
 */
export async function afterAccess<A, T>(access: Promise<A>, read: Promise<T>): Promise<[A, T]> {
  // Refused, the read's own failure is nobody's concern (and must not go unhandled).
  read.catch(() => undefined);
  const granted = await access;
  return [granted, await read];
}

/** `{delivery}` of the path: a delivery id (a UUID); anything else names no delivery. */
export function deliveryIdOf(raw: string): string {
  if (!deliveryField.deliveryId.safeParse(raw).success) throw new ApiError(404, `Delivery ${raw.slice(0, 100)} not found`);
  return raw.toLowerCase();
}

/**
 * 400 for a redeliver or recover of a disabled webhook, decided from the webhook the access
 * check read (no round trip more): its attempts would only be recorded as failed.
 */
export function refuseIfDisabled(webhook: WebhookView, action: ResendAction): void {
  const refusal = resendRefusal(webhook, action, `POST ${v2Links('').webhookEnable(webhook.roomId as number, webhook.id)}`);
  if (refusal) throw new ApiError(400, refusal);
}

/** What GET .../delivery-stats answers, for a webhook and a bridge alike (OpenAPI notes). */
export const DELIVERY_STATS_NOTES = 'Our extension, for the console\'s charts. Deliveries are counted by when they were created: '
  + '`delivered` at their first attempt; `retried` delivered after more than one attempt, or retrying now; `failed` given up on; '
  + '`pending` not yet attempted; cancelled ones (their webhook was gone when an attempt was due) are not counted. Latency is the p50 and p99 '
  + '(percentile_cont) of the durations of those deliveries\' attempts, null when there was none. Every bucket from since (floored to its UTC '
  + 'hour or day) to now is present, zero-filled, oldest first. Read from the delivery log by its (webhook, created) index: it costs the '
  + 'window\'s deliveries of this webhook only, however large the log. 400 naming since when it is older than 7 days or in the future, '
  + 'naming bucket when it is not hour or day.';

/** `links.self` of delivery statistics: under the owner's own URL, with the window as answered (the link gives the same buckets). */
export const deliveryStatsLink = (ownerSelf: string, since: string, bucket: string) =>
  `${ownerSelf}/delivery-stats?since=${encodeURIComponent(since)}&bucket=${bucket}`;

const DeliveryIdParam = createParamDecorator((_: unknown, ctx: ExecutionContext): string => deliveryIdOf(pathParam(ctx, 'delivery')));

/**
 * A webhook's delivery log (our extension of the v2 API), under the webhook's own URL: what
 * was sent, when, what the receiver answered; one more attempt of a delivery; failed ones
 * sent again. Access is the webhook's own (`admin_room`, and GET of the webhook: the rooms
 * service answers 404 to whoever may not see it); then the webhook dispatchers answer.
 */
@V2Controller('room')
export class WebhookDeliveriesController extends V2Resource {
  constructor(rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig, private readonly dispatcher: DispatcherClient) {
    super(rooms, config);
  }

  @Get(':room/webhook/:id/delivery')
  @Summary('List the deliveries of a webhook, newest first (filters: status, event, since; links.next pages by cursor)')
  @RequireScopes('admin_room')
  async list(
    @RoomRefParam() room: RoomRef, @WebhookIdParam() ref: WebhookRef, @Param('room') name: string,
    @V2Query(deliveryListQuery) q: DeliveryListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor,
  ) {
    const access = this.visibleWebhook(actor, room, ref);
    // A key names the webhook only once the rooms service has found it; an id names it now.
    const webhookId = 'id' in ref ? ref.id : (await access).id;
    let self = '';
    return this.page(q, raw, v2Links('').webhookDeliveries(name, webhookId),
      async (w) => {
        const command = { webhookId, ...filtersOf(q), ...cursorOf(q), ...w };
        const [webhook, { deliveries }] = await afterAccess(access, this.dispatcher.send(ListDeliveriesV1, command, traceOfActor(actor)));
        self = webhookUrl(webhook, this.base);
        return deliveries;
      },
      (d) => toV2DeliveryItem(d, self),
      // A dispatcher older than positions gives none: next pages by start-index alone.
      { param: 'after', after: (d) => (d.position ? encodeCursor(d.position) : undefined) });
  }

  @Get(':room/webhook/:id/delivery-stats')
  @Summary('Count the deliveries of a webhook per hour or day since a time (delivered, retried, failed, pending), with their latency (p50, p99)')
  @RequireScopes('admin_room')
  @ResponseSchema(deliveryStatsResponse)
  @Notes(DELIVERY_STATS_NOTES)
  async stats(@RoomRefParam() room: RoomRef, @WebhookIdParam() ref: WebhookRef, @V2Query(deliveryStatsQuery) q: DeliveryStatsQuery, @CurrentActor() actor: Actor) {
    const access = this.visibleWebhook(actor, room, ref);
    const webhookId = 'id' in ref ? ref.id : (await access).id;
    const [webhook, { stats }] = await afterAccess(access, this.dispatcher.send(DeliveryStatsV1, statsCommandOf(webhookId, q), traceOfActor(actor)));
    return toV2DeliveryStats(stats, deliveryStatsLink(webhookUrl(webhook, this.base), stats.since, stats.bucket));
  }

  @Get(':room/webhook/:id/delivery/:delivery')
  @Summary('Get a delivery of a webhook: the request as sent, every attempt, the reply')
  @RequireScopes('admin_room')
  async get(@RoomRefParam() room: RoomRef, @WebhookIdParam() ref: WebhookRef, @DeliveryIdParam() id: string, @CurrentActor() actor: Actor) {
    const access = this.visibleWebhook(actor, room, ref);
    const webhookId = 'id' in ref ? ref.id : (await access).id;
    const [webhook, { delivery }] = await afterAccess(access, this.dispatcher.send(GetDeliveryV1, { delivery: id, webhookId }, traceOfActor(actor)));
    return toV2Delivery(delivery, webhookUrl(webhook, this.base));
  }

  @Post(':room/webhook/:id/delivery/:delivery/redeliver')
  @Summary('Make one more attempt of a delivery now (of one still in its retries: its next retry, now; of an ordered one not yet ended: 400, its lane sends it in its turn; of a disabled webhook: 400, enable it first)')
  @HttpCode(202)
  @RequireScopes('admin_room')
  async redeliver(@RoomRefParam() room: RoomRef, @WebhookIdParam() ref: WebhookRef, @DeliveryIdParam() id: string, @CurrentActor() actor: Actor) {
    const webhook = await this.visibleWebhook(actor, room, ref);
    refuseIfDisabled(webhook, 'redeliver');
    await this.dispatcher.send(RedeliverV1, { delivery: id, webhookId: webhook.id }, traceOfActor(actor));
    return {};
  }

  @Post(':room/webhook/:id/recover')
  @Summary('Send again every failed delivery of a webhook created since a time, oldest first (of a disabled webhook: 400, enable it first)')
  @HttpCode(202)
  @RequireScopes('admin_room')
  async recover(@RoomRefParam() room: RoomRef, @WebhookIdParam() ref: WebhookRef, @V2Body(recoverBody) b: RecoverBody, @CurrentActor() actor: Actor) {
    const webhook = await this.visibleWebhook(actor, room, ref);
    refuseIfDisabled(webhook, 'recover');
    return this.dispatcher.send(RecoverDeliveriesV1, { webhookId: webhook.id, since: b.since }, traceOfActor(actor));
  }

  /** The webhook, when the actor may see it: the access rules of GET .../webhook/{id}, asked of the rooms service. */
  private async visibleWebhook(actor: Actor, room: RoomRef, webhook: WebhookRef): Promise<WebhookView> {
    return (await this.rooms.send(GetWebhookV1, { actor, room, webhook })).webhook;
  }
}

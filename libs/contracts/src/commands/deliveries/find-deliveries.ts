import { z } from 'zod';
import { defineCommand } from '../define-command';
import { deliveryField } from './delivery-fields';
import { DeliveryDetailView, DeliveryView } from './delivery-view';

/**
 * The delivery log's commands are the webhook dispatcher's (its own command queue). They take
 * no actor: the gateway has checked the caller may see the webhook (webhooks.get-webhook.v1)
 * before it sends them, and the CLI is an operator's tool.
 */

/**
 * A webhook's deliveries, newest first, filtered; reads `limit` rows from `startIndex`
 * (one more than a page holds, to know whether a next page exists).
 */
export const ListDeliveriesV1 = defineCommand<{ deliveries: DeliveryView[] }>('deliveries.list-deliveries.v1', z.object({
  webhookId: deliveryField.webhookId,
  status: deliveryField.status.optional(),
  event: deliveryField.event.optional(),
  /** Deliveries created at or after this instant. */
  since: deliveryField.instant.optional(),
  startIndex: z.number().int().min(0).max(2_147_483_647),
  limit: z.number().int().min(1).max(1001),
}), { query: true });

/**
 * One delivery in full. With `webhookId`, a delivery of another webhook is not found (the
 * API's case); without it (the CLI's), any delivery.
 */
export const GetDeliveryV1 = defineCommand<{ delivery: DeliveryDetailView }>('deliveries.get-delivery.v1', z.object({
  delivery: deliveryField.deliveryId,
  webhookId: deliveryField.webhookId.optional(),
}), { query: true });

import { z } from 'zod';
import { defineCommand } from '../define-command';
import { deliveryField } from './delivery-fields';
import { DeliveryDetailView, DeliveryListItem } from './delivery-view';
import { startIndexSchema } from '../../rules/ids';

/**
 * The delivery log's commands are the webhook dispatcher's (its own command queue). They take
 * no actor: the gateway has checked the caller may see the webhook (webhooks.get-webhook.v1)
 * before it sends them, and the CLI is an operator's tool.
 */

/**
 * A webhook's deliveries, newest first, filtered; reads `limit` rows (one more than a page
 * holds, to know whether a next page exists) from `startIndex`, or, given `after`, from the
 * delivery after that position. Each item carries its position, for the page after it.
 *
 * `after` was added to v1, optional, rather than a v2 made: a dispatcher older than it drops
 * the field and answers the page at `startIndex`, which the caller sends along (its link
 * names both), so during a rolling update a page is read as before, by offset; and a caller
 * older than it never sends it. Nothing is misread, so no replica need refuse it.
 */
export const ListDeliveriesV1 = defineCommand<{ deliveries: DeliveryListItem[] }>('deliveries.list-deliveries.v1', z.object({
  webhookId: deliveryField.webhookId,
  status: deliveryField.status.optional(),
  event: deliveryField.event.optional(),
  /** Deliveries created at or after this instant. */
  since: deliveryField.instant.optional(),
  /** Ignored when `after` is given: the page starts after that delivery, wherever it now stands. */
  startIndex: startIndexSchema,
  /**
   * Deliveries after this position in the log's order (older, or as old with a smaller id),
   * read as a range of the index: no deliveries skipped one by one, and none moved along by
   * deliveries created meanwhile.
   */
  after: deliveryField.position.optional(),
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

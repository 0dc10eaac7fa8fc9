import { z } from 'zod';
import { defineCommand } from '../define-command';
import { deliveryField } from './delivery-fields';

/**
 * One more attempt of a delivery, now, whatever its status: the same `webhook-id`, a fresh
 * timestamp and JWT, recorded as attempt `attempts + 1`. Not retried when it fails: the
 * delivery ends `delivered` or `failed` with it. Answers once the job is queued.
 * `webhookId` as for GetDeliveryV1.
 */
export const RedeliverV1 = defineCommand<{ deliveryId: string; attempt: number }>('deliveries.redeliver.v1', z.object({
  delivery: deliveryField.deliveryId,
  webhookId: deliveryField.webhookId.optional(),
}));

/**
 * Every `failed` delivery of the webhook created at or after `since` is queued again, oldest
 * first, each with a fresh retry schedule (its attempts numbered on from what it had).
 * Answers how many were queued.
 */
export const RecoverDeliveriesV1 = defineCommand<{ count: number }>('deliveries.recover-deliveries.v1', z.object({
  webhookId: deliveryField.webhookId,
  since: deliveryField.pastInstant,
}), { alone: true });

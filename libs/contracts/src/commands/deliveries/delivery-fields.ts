import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES } from '../../models/webhook-event-names';
import { instantProblem, instantSchema } from '../../rules/instant';
import { text } from '../../rules/text';

/** Every status a delivery's record can have (`cancelled`: its webhook was gone when an attempt was due). */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

/** The rules of the delivery log's fields, written once: the gateway, the CLI and the dispatcher parse with them. */
export const deliveryField = {
  /** A delivery's id: the `webhook-id` header its receiver saw. */
  deliveryId: z.string().uuid('must be a delivery id (a UUID)'),
  webhookId: z.number().int().positive().max(2_147_483_647),
  status: z.enum(DELIVERY_STATUSES),
  event: z.enum(WEBHOOK_EVENT_NAMES),
  /** An instant, as ISO 8601 text (answered as it was given: the dispatcher compares it as a timestamp). */
  instant: instantSchema,
  /** An instant that is not in the future (what `recover` starts from). */
  pastInstant: text((v) => instantProblem(v) ?? (Date.parse(v) > Date.now() ? 'must not be in the future' : null)),
};

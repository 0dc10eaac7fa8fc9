import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES } from '../../models/webhook-event-names';
import { instantProblem, instantSchema } from '../../rules/instant';
import { text } from '../../rules/text';
import { idSchema } from '../../rules/ids';

/** Every status a delivery's record can have (`cancelled`: its webhook was gone when an attempt was due). */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

const POSITION_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * Why a text is not a delivery's `created_at` as a position carries it (UTC, to the
 * microsecond, as PostgreSQL keeps it), or null.
 */
export const positionAtProblem = (v: string): string | null => (POSITION_AT.test(v)
  ? instantProblem(v)
  : `must be a UTC time to the microsecond, such as 2025-03-01T12:00:00.123456Z (got "${v.slice(0, 50)}")`);

/** The rules of the delivery log's fields, written once: the gateway, the CLI and the dispatcher parse with them. */
export const deliveryField = {
  /** A delivery's id: the `webhook-id` header its receiver saw. */
  deliveryId: z.string().uuid('must be a delivery id (a UUID)'),
  webhookId: idSchema,
  status: z.enum(DELIVERY_STATUSES),
  event: z.enum(WEBHOOK_EVENT_NAMES),
  /** An instant, as ISO 8601 text (answered as it was given: the dispatcher compares it as a timestamp). */
  instant: instantSchema,
  /**
   * A delivery's place in its log's order, (created_at, id), exactly: a keyset page starts
   * after it. `createdAt` to the microsecond: a DeliveryView's `created` has milliseconds
   * only, and a position cut to them would skip or repeat deliveries of the same millisecond.
   */
  position: z.object({
    createdAt: text(positionAtProblem),
    id: z.string().uuid('must be a delivery id (a UUID)'),
  }),
  /** An instant that is not in the future (what `recover` starts from). */
  pastInstant: text((v) => instantProblem(v) ?? (Date.parse(v) > Date.now() ? 'must not be in the future' : null)),
};

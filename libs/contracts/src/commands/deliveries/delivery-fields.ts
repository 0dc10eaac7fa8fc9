import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES } from '../../models/webhook-event-names';
import { text } from '../../rules/text';

/** Every status a delivery's record can have (`cancelled`: its webhook was gone when an attempt was due). */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))$/;

/**
 * Why a text is not an ISO 8601 instant (a date, a time and its offset: `2025-03-01T12:00:00Z`,
 * `2025-03-01T13:00+01:00`), or null. Date.parse alone would take `2025-02-30` as 2 March.
 */
export function instantProblem(v: string): string | null {
  const m = INSTANT.exec(v);
  const wanted = 'must be an ISO 8601 date and time with its offset, such as 2025-03-01T12:00:00Z';
  if (!m) return `${wanted} (got "${v.slice(0, 50)}")`;
  const [year, month, day, hour, minute, second, offH, offM] = m.slice(1).map((p) => (p === undefined ? 0 : Number(p)));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59 || offH > 23 || offM > 59) {
    return `${wanted}; "${v.slice(0, 50)}" is not a real date and time`;
  }
  return null;
}

/** The rules of the delivery log's fields, written once: the gateway, the CLI and the dispatcher parse with them. */
export const deliveryField = {
  /** A delivery's id: the `webhook-id` header its receiver saw. */
  deliveryId: z.string().uuid('must be a delivery id (a UUID)'),
  webhookId: z.number().int().positive().max(2_147_483_647),
  status: z.enum(DELIVERY_STATUSES),
  event: z.enum(WEBHOOK_EVENT_NAMES),
  /** An instant, as ISO 8601 text (answered as it was given: the dispatcher compares it as a timestamp). */
  instant: text(instantProblem),
  /** An instant that is not in the future (what `recover` starts from). */
  pastInstant: text((v) => instantProblem(v) ?? (Date.parse(v) > Date.now() ? 'must not be in the future' : null)),
};

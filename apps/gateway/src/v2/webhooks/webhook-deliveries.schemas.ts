import { DELIVERY_STATS_BUCKETS, deliveryField, statsSinceProblem, text } from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { pageQuery } from '../http/pagination';
import { cursorParam } from './delivery-cursor';

/** A query parameter given empty counts as absent (as everywhere in v2). */
const optionalParam = <S extends ZodTypeAny>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** GET .../webhook/{id}/delivery: the page, and the filters, each with the delivery log's rule (a 400 naming it). */
export const deliveryListQuery = z.object({
  ...pageQuery,
  status: optionalParam(deliveryField.status),
  event: optionalParam(deliveryField.event),
  since: optionalParam(deliveryField.instant),
  after: optionalParam(cursorParam).describe(
    'Where the page starts: after the delivery this cursor names (links.next carries it, opaque; pass it back as given). '
    + 'Pages followed by it show each delivery once, however many arrive meanwhile, and cost the same however deep. '
    + 'start-index is then only echoed as the page\'s startIndex; without after, start-index alone places the page, as before.',
  ),
});
export type DeliveryListQuery = z.output<typeof deliveryListQuery>;

/** The filters a list command carries: only those given. */
export const filtersOf = (q: DeliveryListQuery) => ({
  ...(q.status !== undefined ? { status: q.status } : {}),
  ...(q.event !== undefined ? { event: q.event } : {}),
  ...(q.since !== undefined ? { since: q.since } : {}),
});

/** Where a list command's page starts, besides its start-index: after the cursor's delivery, when given. */
export const cursorOf = (q: DeliveryListQuery) => (q.after !== undefined ? { after: q.after } : {});

/** POST .../webhook/{id}/recover: from when failed deliveries are sent again (not in the future). */
export const recoverBody = z.object({ since: deliveryField.pastInstant });
export type RecoverBody = z.output<typeof recoverBody>;

/** How far back delivery statistics start when `since` is not given: the last 24 hours. */
export const DEFAULT_STATS_WINDOW_MS = 86_400_000;

/** GET .../delivery-stats: from when (at most 7 days ago, not in the future) and per hour or day. */
export const deliveryStatsQuery = z.object({
  since: optionalParam(text((v) => statsSinceProblem(v, Date.now()))).describe(
    'ISO 8601 instant the statistics start from, floored to its bucket (UTC hour or day); at most 7 days ago, not in the future. Default: 24 hours ago.',
  ),
  bucket: optionalParam(z.enum(DELIVERY_STATS_BUCKETS)).describe('hour (default) or day: the buckets are UTC hours or UTC days.'),
});
export type DeliveryStatsQuery = z.output<typeof deliveryStatsQuery>;

/** The statistics command of a query: the defaults filled in (24 hours, per hour). */
export const statsCommandOf = (webhookId: number, q: DeliveryStatsQuery, now = Date.now()) => ({
  webhookId,
  since: q.since ?? new Date(now - DEFAULT_STATS_WINDOW_MS).toISOString(),
  bucket: q.bucket ?? ('hour' as const),
});

const count = (what: string) => z.number().int().describe(what);
const countsSchema = {
  delivered: count('Deliveries delivered at their first attempt'),
  retried: count('Deliveries delivered after more than one attempt, or retrying now'),
  failed: count('Deliveries given up on (failed)'),
  pending: count('Deliveries not yet attempted'),
};
const percentile = (which: string) => z.number().nullable().describe(`${which} of the attempts' durations in ms; null when there was no attempt`);

/** The answer of GET .../delivery-stats. */
export const deliveryStatsResponse = z.object({
  since: z.string().describe('ISO 8601, UTC: the start of the first bucket (since floored to its bucket)'),
  until: z.string().describe('ISO 8601, UTC: when the statistics were read (the last bucket holds it)'),
  bucket: z.enum(DELIVERY_STATS_BUCKETS),
  totals: z.object(countsSchema).describe('The buckets\' counts summed (cancelled deliveries are not counted)'),
  latency_ms: z.object({ p50: percentile('Median'), p99: percentile('99th percentile') }).describe('Of every attempt of the deliveries counted (attempts not sent because the webhook was disabled left out)'),
  buckets: z.array(z.object({
    start: z.string().describe('ISO 8601, UTC: the start of the bucket'),
    ...countsSchema,
    p50_ms: percentile('Median'),
    p99_ms: percentile('99th percentile'),
  })).describe('Every bucket from since to until, oldest first; those with no delivery are zeros'),
  links: z.object({ self: z.string() }),
});

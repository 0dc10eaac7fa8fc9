import { z } from 'zod';
import { defineCommand } from '../define-command';
import { instantProblem } from '../../rules/instant';
import { text } from '../../rules/text';
import { deliveryField } from './delivery-fields';

/** How a webhook's delivery statistics are cut: per UTC hour or per UTC day. */
export const DELIVERY_STATS_BUCKETS = ['hour', 'day'] as const;
export type DeliveryStatsBucket = (typeof DELIVERY_STATS_BUCKETS)[number];

/** How far back statistics reach: a week (a chart of 7 days is the longest the console draws). */
export const DELIVERY_STATS_MAX_AGE_MS = 7 * 86_400_000;

/**
 * Why a text is not where delivery statistics may start (an instant, not in the future, at
 * most 7 days ago), or null. `graceMs` widens both bounds: a receiver of the command (the
 * dispatcher) allows for its clock and the command's travel, so that what the gateway took
 * is never refused after it.
 */
export function statsSinceProblem(v: string, now: number, graceMs = 0): string | null {
  const problem = instantProblem(v);
  if (problem) return problem;
  const at = Date.parse(v);
  if (at > now + graceMs) return 'must not be in the future';
  if (at < now - DELIVERY_STATS_MAX_AGE_MS - graceMs) return 'must be at most 7 days ago';
  return null;
}

/** Counts of a webhook's deliveries by what became of them (cancelled ones are not counted). */
export interface DeliveryCounts {
  /** Delivered at the first attempt. */
  delivered: number;
  /** Delivered after more than one attempt, or retrying now. */
  retried: number;
  /** Given up on (failed). */
  failed: number;
  /** Not yet attempted. */
  pending: number;
}

/** One bucket of a webhook's delivery statistics: its deliveries created within it. */
export interface DeliveryStatsBucketView extends DeliveryCounts {
  /** ISO 8601, UTC: where the bucket starts (a whole hour or a UTC midnight). */
  start: string;
  /** Median of the durations of these deliveries' attempts, in ms; null: no attempt. */
  p50Ms: number | null;
  /** 99th percentile of the same; null: no attempt. */
  p99Ms: number | null;
}

/** A webhook's deliveries counted per bucket, every bucket from `since` to `until` present (zero-filled), oldest first. */
export interface DeliveryStatsView {
  /** ISO 8601, UTC: the start of the first bucket (the requested `since` floored to its bucket). */
  since: string;
  /** ISO 8601, UTC: when the statistics were read (the last bucket holds it). */
  until: string;
  bucket: DeliveryStatsBucket;
  totals: DeliveryCounts;
  /** Of every attempt of the deliveries counted. */
  latency: { p50Ms: number | null; p99Ms: number | null };
  buckets: DeliveryStatsBucketView[];
}

/** How much later than the gateway's clock the dispatcher's may be, and the command in flight (see statsSinceProblem). */
const CLOCK_GRACE_MS = 5 * 60_000;

/**
 * A webhook's (or bridge's) deliveries created from `since` (floored to the bucket) to now,
 * counted per bucket by what became of them, with the p50 and p99 of their attempts'
 * durations: read from the delivery log by its (webhook_id, created_at) index, so that it
 * costs the window's deliveries of that webhook, however large the log. Sent alone: a week
 * of a busy webhook is a read of every one of its deliveries that week (a second or more at
 * a million), which answers in a batch would wait for.
 */
export const DeliveryStatsV1 = defineCommand<{ stats: DeliveryStatsView }>('deliveries.delivery-stats.v1', z.object({
  webhookId: deliveryField.webhookId,
  since: text((v) => statsSinceProblem(v, Date.now(), CLOCK_GRACE_MS)),
  bucket: z.enum(DELIVERY_STATS_BUCKETS),
}), { query: true, alone: true });

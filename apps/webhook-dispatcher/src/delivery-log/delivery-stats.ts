import type { DeliveryCounts, DeliveryStatsBucket, DeliveryStatsBucketView, DeliveryStatsView } from '@app/contracts';

const BUCKET_MS: Record<DeliveryStatsBucket, number> = { hour: 3_600_000, day: 86_400_000 };

/** The start of the UTC hour or UTC day that holds `at` (what date_trunc gives of `created_at AT TIME ZONE 'UTC'`). */
export function floorToBucket(at: Date, bucket: DeliveryStatsBucket): Date {
  const size = BUCKET_MS[bucket];
  return new Date(Math.floor(at.getTime() / size) * size);
}

/** The start of every bucket from the one holding `since` to the one holding `until`, oldest first. */
export function bucketStarts(since: Date, until: Date, bucket: DeliveryStatsBucket): Date[] {
  const starts: Date[] = [];
  const last = floorToBucket(until, bucket).getTime();
  for (let t = floorToBucket(since, bucket).getTime(); t <= last; t += BUCKET_MS[bucket]) starts.push(new Date(t));
  return starts;
}

/**
 * A bucket as the log's query answers it: its start, its deliveries counted by what became of
 * them, and the percentiles of their attempts' durations (null: no attempt). `start` null is
 * the row of the whole window's percentiles (its counts are not read: the buckets' sum).
 */
export interface StatsRow extends DeliveryCounts {
  start: Date | null;
  p50: number | null;
  p99: number | null;
}

/** A duration in ms to a tenth (percentile_cont interpolates: 12.000000001 says nothing more than 12). */
const ms = (v: number | null): number | null => (v === null ? null : Math.round(Number(v) * 10) / 10);

const ZERO: DeliveryCounts = { delivered: 0, retried: 0, failed: 0, pending: 0 };

/**
 * The statistics of a window: every bucket from `since`'s to `until`'s present, oldest first,
 * those the query found no delivery in as zeros with no latency; the totals the sum of the
 * buckets shown. A row outside the window (a clock between the query and `until`) is dropped.
 */
export function deliveryStats(rows: readonly StatsRow[], since: Date, until: Date, bucket: DeliveryStatsBucket): DeliveryStatsView {
  const found = new Map(rows.filter((r) => r.start !== null).map((r) => [(r.start as Date).getTime(), r]));
  const whole = rows.find((r) => r.start === null);
  const totals = { ...ZERO };
  const buckets: DeliveryStatsBucketView[] = bucketStarts(since, until, bucket).map((start) => {
    const row = found.get(start.getTime());
    const counts: DeliveryCounts = row
      ? { delivered: Number(row.delivered), retried: Number(row.retried), failed: Number(row.failed), pending: Number(row.pending) }
      : { ...ZERO };
    for (const k of Object.keys(totals) as (keyof DeliveryCounts)[]) totals[k] += counts[k];
    return { start: start.toISOString(), ...counts, p50Ms: ms(row?.p50 ?? null), p99Ms: ms(row?.p99 ?? null) };
  });
  return {
    since: floorToBucket(since, bucket).toISOString(),
    until: until.toISOString(),
    bucket,
    totals,
    latency: { p50Ms: ms(whole?.p50 ?? null), p99Ms: ms(whole?.p99 ?? null) },
    buckets,
  };
}

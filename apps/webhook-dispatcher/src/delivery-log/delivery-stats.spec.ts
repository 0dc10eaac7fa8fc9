import { bucketStarts, deliveryStats, floorToBucket, StatsRow } from './delivery-stats';

const at = (iso: string) => new Date(iso);
const row = (start: string | null, counts: Partial<StatsRow> = {}): StatsRow => ({
  start: start === null ? null : at(start), delivered: 0, retried: 0, failed: 0, pending: 0, p50: null, p99: null, ...counts,
});

describe('floorToBucket', () => {
  it('floors to the UTC hour and to the UTC day', () => {
    expect(floorToBucket(at('2026-03-01T10:59:59.999Z'), 'hour')).toEqual(at('2026-03-01T10:00:00Z'));
    expect(floorToBucket(at('2026-03-01T10:00:00.000Z'), 'hour')).toEqual(at('2026-03-01T10:00:00Z'));
    expect(floorToBucket(at('2026-03-01T23:30:00+02:00'), 'day')).toEqual(at('2026-03-01T00:00:00Z'));
    expect(floorToBucket(at('2026-03-01T00:30:00-02:00'), 'day')).toEqual(at('2026-03-01T00:00:00Z'));
  });
});

describe('bucketStarts', () => {
  it('lists every bucket from the one holding since to the one holding until, oldest first', () => {
    expect(bucketStarts(at('2026-03-01T10:20:00Z'), at('2026-03-01T13:05:00Z'), 'hour').map((d) => d.toISOString()))
      .toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z', '2026-03-01T13:00:00.000Z']);
  });

  it('has 25 hours for the last 24 hours (the first and the current one both partly in it) and 8 days for the last 7', () => {
    const now = at('2026-03-08T09:15:00Z');
    expect(bucketStarts(new Date(now.getTime() - 86_400_000), now, 'hour')).toHaveLength(25);
    expect(bucketStarts(new Date(now.getTime() - 7 * 86_400_000), now, 'day')).toHaveLength(8);
  });

  it('has the one bucket holding both when since and until fall in it', () => {
    expect(bucketStarts(at('2026-03-01T10:00:00Z'), at('2026-03-01T10:00:00Z'), 'hour')).toEqual([at('2026-03-01T10:00:00Z')]);
  });
});

describe('deliveryStats', () => {
  const since = at('2026-03-01T10:20:00Z');
  const until = at('2026-03-01T13:05:00Z');

  it('fills the buckets the log had no delivery in with zeros and no latency, oldest first', () => {
    const stats = deliveryStats([row('2026-03-01T12:00:00Z', { delivered: 3, failed: 1, p50: 12, p99: 40 })], since, until, 'hour');
    expect(stats.buckets).toEqual([
      { start: '2026-03-01T10:00:00.000Z', delivered: 0, retried: 0, failed: 0, pending: 0, p50Ms: null, p99Ms: null },
      { start: '2026-03-01T11:00:00.000Z', delivered: 0, retried: 0, failed: 0, pending: 0, p50Ms: null, p99Ms: null },
      { start: '2026-03-01T12:00:00.000Z', delivered: 3, retried: 0, failed: 1, pending: 0, p50Ms: 12, p99Ms: 40 },
      { start: '2026-03-01T13:00:00.000Z', delivered: 0, retried: 0, failed: 0, pending: 0, p50Ms: null, p99Ms: null },
    ]);
  });

  it('answers the window from since floored to its bucket, to until, and totals the buckets', () => {
    const stats = deliveryStats([
      row('2026-03-01T10:00:00Z', { delivered: 2, retried: 1 }),
      row('2026-03-01T13:00:00Z', { delivered: 1, pending: 4, failed: 2 }),
      row(null, { p50: 20.04, p99: 987.6543 }),
    ], since, until, 'hour');
    expect(stats).toMatchObject({
      since: '2026-03-01T10:00:00.000Z', until: '2026-03-01T13:05:00.000Z', bucket: 'hour',
      totals: { delivered: 3, retried: 1, failed: 2, pending: 4 },
      // To a tenth of a millisecond: percentile_cont interpolates.
      latency: { p50Ms: 20, p99Ms: 987.7 },
    });
  });

  it('has no latency when no attempt was made in the window', () => {
    expect(deliveryStats([row('2026-03-01T11:00:00Z', { pending: 1 })], since, until, 'hour').latency).toEqual({ p50Ms: null, p99Ms: null });
  });

  it('reads counts and percentiles given as text (bigint and numeric columns) as numbers', () => {
    const stats = deliveryStats([row('2026-03-01T11:00:00Z', { delivered: '5' as unknown as number, p50: '7.5' as unknown as number })], since, until, 'hour');
    expect(stats.buckets[1]).toMatchObject({ delivered: 5, p50Ms: 7.5 });
    expect(stats.totals.delivered).toBe(5);
  });

  it('drops a row outside the window rather than adding a bucket (the database clock a little ahead)', () => {
    const stats = deliveryStats([row('2026-03-01T14:00:00Z', { delivered: 9 })], since, until, 'hour');
    expect(stats.buckets).toHaveLength(4);
    expect(stats.totals.delivered).toBe(0);
  });

  it('cuts by UTC day', () => {
    const stats = deliveryStats([row('2026-03-02T00:00:00Z', { retried: 2 })], at('2026-02-28T18:00:00Z'), at('2026-03-02T01:00:00Z'), 'day');
    expect(stats.buckets.map((b) => [b.start, b.retried])).toEqual([
      ['2026-02-28T00:00:00.000Z', 0], ['2026-03-01T00:00:00.000Z', 0], ['2026-03-02T00:00:00.000Z', 2],
    ]);
    expect(stats.since).toBe('2026-02-28T00:00:00.000Z');
  });
});

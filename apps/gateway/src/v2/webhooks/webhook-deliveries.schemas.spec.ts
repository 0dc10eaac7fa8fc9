import { describeIssue } from '@app/contracts';
import { deliveryIdOf } from './webhook-deliveries.controller';
import { deliveryListQuery, deliveryStatsQuery, filtersOf, recoverBody, statsCommandOf } from './webhook-deliveries.schemas';

/** The 400's message of a query or body, as the v2 API words it (ZodQueryPipe / ZodBodyPipe). */
const problemOf = (schema: typeof deliveryListQuery | typeof recoverBody | typeof deliveryStatsQuery, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? null : describeIssue(r.error.issues[0]);
};

describe('the delivery log\'s query and bodies', () => {
  it('pages by start-index and max-results (default 100, at most 1,000), filters only by what is given', () => {
    const q = deliveryListQuery.parse({});
    expect(q).toEqual({ 'start-index': 0, 'max-results': 100 });
    expect(filtersOf(q)).toEqual({});
    const all = deliveryListQuery.parse({ 'start-index': '20', 'max-results': '1000', status: 'failed', event: 'room_message', since: '2026-03-01T12:00:00+01:00' });
    expect(filtersOf(all)).toEqual({ status: 'failed', event: 'room_message', since: '2026-03-01T12:00:00+01:00' });
    // Empty means absent, as for every v2 parameter.
    expect(filtersOf(deliveryListQuery.parse({ status: '', event: '', since: '' }))).toEqual({});
  });

  it('takes every status a delivery can show, and the ten event names', () => {
    for (const status of ['pending', 'retrying', 'delivered', 'failed', 'cancelled']) expect(problemOf(deliveryListQuery, { status })).toBeNull();
    expect(problemOf(deliveryListQuery, { event: 'room_topic_change' })).toBeNull();
  });

  it('answers a bad value with the parameter and its rule', () => {
    expect(problemOf(deliveryListQuery, { status: 'lost' })).toBe('status: must be one of pending, retrying, delivered, failed, cancelled');
    expect(problemOf(deliveryListQuery, { event: 'room_joined' })).toMatch(/^event: must be one of room_archived, room_created, /);
    expect(problemOf(deliveryListQuery, { since: 'yesterday' }))
      .toBe('since: must be an ISO 8601 date and time with its offset, such as 2025-03-01T12:00:00Z (got "yesterday")');
    expect(problemOf(deliveryListQuery, { since: '2026-03-01T12:00:00' })).toMatch(/^since: must be an ISO 8601 date and time with its offset/);
    expect(problemOf(deliveryListQuery, { since: '2026-02-30T12:00:00Z' })).toMatch(/^since: .*"2026-02-30T12:00:00Z" is not a real date and time$/);
    expect(problemOf(deliveryListQuery, { 'max-results': '1001' })).toBe('max-results: must be a whole number from 0 to 1000 (got "1001")');
    expect(problemOf(deliveryListQuery, { 'start-index': '-1' })).toMatch(/^start-index: must be a whole number/);
  });

  it('recovers from a time given, not in the future', () => {
    expect(recoverBody.parse({ since: '2026-01-01T00:00:00Z', other: 1 })).toEqual({ since: '2026-01-01T00:00:00Z' });
    expect(problemOf(recoverBody, {})).toBe('since: is required');
    expect(problemOf(recoverBody, { since: 3 })).toBe('since: must be text (got number)');
    expect(problemOf(recoverBody, { since: '2h' })).toMatch(/^since: must be an ISO 8601 date and time/);
    expect(problemOf(recoverBody, { since: new Date(Date.now() + 3_600_000).toISOString() })).toBe('since: must not be in the future');
  });

  it('refuses a since PostgreSQL cannot store (year 0, an offset beyond ±15:59), naming since and the rule', () => {
    expect(problemOf(deliveryListQuery, { since: '0000-01-01T00:00:00Z' }))
      .toBe('since: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (got "0000-01-01T00:00:00Z")');
    for (const since of ['2025-01-01T00:00:00+16:00', '2025-01-01T00:00:00+20:00', '2025-01-01T00:00:00-23:59']) {
      expect(problemOf(deliveryListQuery, { since })).toBe(`since: must have a UTC offset from -15:59 to +15:59 (got "${since}")`);
    }
    expect(problemOf(recoverBody, { since: '2025-01-01T00:00:00+18:00' })).toBe('since: must have a UTC offset from -15:59 to +15:59 (got "2025-01-01T00:00:00+18:00")');
    expect(problemOf(recoverBody, { since: '0000-01-01T00:00:00Z' })).toMatch(/^since: must be from 0001-01-01T00:00:00Z/);
    expect(problemOf(deliveryListQuery, { since: '2025-01-01T00:00:00+15:59' })).toBeNull();
  });

  it('reads a delivery id of the path as a UUID; anything else names no delivery (404)', () => {
    expect(deliveryIdOf('6F1C2A4E-3B5D-5E7F-8A9B-0C1D2E3F4A5B')).toBe('6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b');
    expect(() => deliveryIdOf('42')).toThrow(expect.objectContaining({ status: 404, message: 'Delivery 42 not found' }));
  });
});

describe('the delivery statistics\' query', () => {
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

  it('starts 24 hours ago, per hour, when nothing is given (empty means absent)', () => {
    const now = Date.parse('2026-03-08T09:15:00Z');
    expect(statsCommandOf(7, deliveryStatsQuery.parse({}), now)).toEqual({ webhookId: 7, since: '2026-03-07T09:15:00.000Z', bucket: 'hour' });
    expect(statsCommandOf(7, deliveryStatsQuery.parse({ since: '', bucket: '' }), now)).toEqual({ webhookId: 7, since: '2026-03-07T09:15:00.000Z', bucket: 'hour' });
  });

  it('takes a since of the last 7 days and a bucket of hour or day', () => {
    const since = hoursAgo(6 * 24);
    expect(statsCommandOf(7, deliveryStatsQuery.parse({ since, bucket: 'day' }))).toEqual({ webhookId: 7, since, bucket: 'day' });
  });

  it('answers a bad value with the parameter and its rule', () => {
    expect(problemOf(deliveryStatsQuery, { since: hoursAgo(7 * 24 + 1) })).toBe('since: must be at most 7 days ago');
    expect(problemOf(deliveryStatsQuery, { since: hoursAgo(-1) })).toBe('since: must not be in the future');
    expect(problemOf(deliveryStatsQuery, { since: 'yesterday' })).toMatch(/^since: must be an ISO 8601 date and time/);
    expect(problemOf(deliveryStatsQuery, { bucket: 'week' })).toBe('bucket: must be one of hour, day');
  });
});

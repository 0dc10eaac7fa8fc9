import { DeliveryStatsV1, statsSinceProblem } from './delivery-stats';

describe('statsSinceProblem', () => {
  const now = Date.parse('2026-03-08T09:15:00Z');

  it('takes an instant of the last 7 days', () => {
    expect(statsSinceProblem('2026-03-08T09:15:00Z', now)).toBeNull();
    expect(statsSinceProblem('2026-03-01T09:15:00Z', now)).toBeNull();
    expect(statsSinceProblem('2026-03-07T10:00:00+02:00', now)).toBeNull();
  });

  it('refuses one in the future, one older than 7 days, and what is no instant', () => {
    expect(statsSinceProblem('2026-03-08T09:15:01Z', now)).toBe('must not be in the future');
    expect(statsSinceProblem('2026-03-01T09:14:59Z', now)).toBe('must be at most 7 days ago');
    expect(statsSinceProblem('yesterday', now)).toMatch(/^must be an ISO 8601 date and time/);
  });

  it('widens both bounds by the grace a receiver allows for clocks', () => {
    expect(statsSinceProblem('2026-03-08T09:16:00Z', now, 120_000)).toBeNull();
    expect(statsSinceProblem('2026-03-01T09:14:00Z', now, 120_000)).toBeNull();
  });
});

describe('DeliveryStatsV1', () => {
  it('is a query sent alone (a week of a busy webhook takes a while; no batch waits for it)', () => {
    expect([DeliveryStatsV1.query, DeliveryStatsV1.alone]).toEqual([true, true]);
  });

  it('parses a webhook, a since and an hour or day bucket, and nothing else', () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect(DeliveryStatsV1.schema.safeParse({ webhookId: 3, since, bucket: 'hour' }).success).toBe(true);
    expect(DeliveryStatsV1.schema.safeParse({ webhookId: 3, since, bucket: 'week' }).success).toBe(false);
    expect(DeliveryStatsV1.schema.safeParse({ webhookId: 3, since: '2020-01-01T00:00:00Z', bucket: 'day' }).success).toBe(false);
  });
});

import { DeliveryStats } from './delivery-stats.usecase';
import type { StatsRow } from './delivery-stats';

describe('DeliveryStats', () => {
  const now = new Date('2026-03-08T09:15:00Z');

  const withLog = (rows: StatsRow[] = []) => {
    const calls: unknown[][] = [];
    const log = { stats: async (...args: unknown[]) => { calls.push(args); return rows; } };
    return { useCase: new DeliveryStats(log as never, () => now), calls };
  };

  it('reads the webhook\'s window from since floored to its bucket up to now, and zero-fills it', async () => {
    const { useCase, calls } = withLog([{ start: new Date('2026-03-08T09:00:00Z'), delivered: 1, retried: 0, failed: 0, pending: 0, p50: 5, p99: 5 }]);
    const { stats } = await useCase.execute({ webhookId: 7, since: '2026-03-07T09:15:00Z', bucket: 'hour' });
    expect(calls).toEqual([[7, new Date('2026-03-07T09:00:00Z'), now, 'hour']]);
    expect(stats.buckets).toHaveLength(25);
    expect(stats.buckets[24]).toMatchObject({ start: '2026-03-08T09:00:00.000Z', delivered: 1, p50Ms: 5 });
    expect(stats).toMatchObject({ since: '2026-03-07T09:00:00.000Z', until: '2026-03-08T09:15:00.000Z', totals: { delivered: 1 } });
  });

  it('reads per UTC day', async () => {
    const { useCase, calls } = withLog();
    const { stats } = await useCase.execute({ webhookId: 7, since: '2026-03-01T10:00:00+02:00', bucket: 'day' });
    expect(calls[0]).toEqual([7, new Date('2026-03-01T00:00:00Z'), now, 'day']);
    expect(stats.buckets.map((b) => b.start)).toHaveLength(8);
  });

  it('takes a since a little ahead of its clock (the gateway\'s clock ahead) as now', async () => {
    const { useCase, calls } = withLog();
    const { stats } = await useCase.execute({ webhookId: 7, since: '2026-03-08T09:16:00Z', bucket: 'hour' });
    expect(calls[0]).toEqual([7, new Date('2026-03-08T09:00:00Z'), now, 'hour']);
    expect(stats.buckets).toHaveLength(1);
  });
});

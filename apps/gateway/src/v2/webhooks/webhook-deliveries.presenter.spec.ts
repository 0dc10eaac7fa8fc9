import type { DeliveryDetailView, DeliveryStatsView, DeliveryView } from '@app/contracts';
import { toV2Delivery, toV2DeliveryItem, toV2DeliveryStats } from './webhook-deliveries.presenter';

const SELF = 'https://chat.example.com/v2/room/3/webhook/7';
const ID = '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b';
const item: DeliveryView = {
  id: ID, webhookId: 7, event: 'room_message', status: 'retrying', created: '2026-01-01T00:00:00.000Z', attempts: 2,
  nextAttemptAt: '2026-01-01T00:05:00.000Z',
  lastAttempt: { attempt: 2, at: '2026-01-01T00:00:05.000Z', statusCode: null, durationMs: 10_000, error: 'timeout: no answer within 10000 ms' },
};

describe('v2 delivery log presenter', () => {
  it('shows an item in v2 names, with its link under the webhook\'s own', () => {
    expect(toV2DeliveryItem(item, SELF)).toEqual({
      id: ID, event: 'room_message', status: 'retrying', created: '2026-01-01T00:00:00.000Z', attempts: 2,
      next_attempt_at: '2026-01-01T00:05:00.000Z',
      last_attempt: { at: '2026-01-01T00:00:05.000Z', duration_ms: 10_000, error: 'timeout: no answer within 10000 ms' },
      links: { self: `${SELF}/delivery/${ID}` },
    });
  });

  it('leaves out what does not apply: no next attempt, no last attempt before the first, no error with an answer', () => {
    const delivered = toV2DeliveryItem({ ...item, status: 'delivered', nextAttemptAt: null, lastAttempt: { ...item.lastAttempt!, statusCode: 204, error: null } }, SELF);
    expect(delivered).not.toHaveProperty('next_attempt_at');
    expect(delivered.last_attempt).toEqual({ at: '2026-01-01T00:00:05.000Z', status_code: 204, duration_ms: 10_000 });
    expect(toV2DeliveryItem({ ...item, status: 'pending', attempts: 0, nextAttemptAt: null, lastAttempt: null }, SELF)).not.toHaveProperty('last_attempt');
  });

  it('shows a delivery in full: the request, every attempt in place of the count, the reply', () => {
    const detail: DeliveryDetailView = {
      ...item,
      request: { url: 'https://r.example/h', headers: { 'webhook-id': ID }, body: '{"event":"room_message"}' },
      attemptLog: [{ attempt: 1, at: '2026-01-01T00:00:01.000Z', statusCode: 500, durationMs: 12, error: null, responseHeaders: { 'content-type': 'text/plain' }, responseBody: 'boom' }],
      reply: { messageId: 'm-1', error: null },
    };
    const shown = toV2Delivery(detail, SELF);
    expect(shown).toMatchObject({
      id: ID, status: 'retrying', request: detail.request, reply: { message_id: 'm-1', error: null },
      attempts: [{ attempt: 1, at: '2026-01-01T00:00:01.000Z', status_code: 500, duration_ms: 12, error: null, response_headers: { 'content-type': 'text/plain' }, response_body: 'boom' }],
    });
    expect(toV2Delivery({ ...detail, reply: { messageId: null, error: null } }, SELF).reply).toBeNull();
  });

  it("masks the request's URL query to everyone, the webhook's creator included, and keeps the headers as the dispatcher cut them", () => {
    const headers = { 'webhook-id': ID, 'webhook-signature': 'v1,AbCdEfGh…', Authorization: 'JWT eyJhbGci…' };
    const detail: DeliveryDetailView = {
      ...item,
      request: { url: 'https://r.example/h?token=s3cr3t&signed_request=eyJhbGciOiJIUzI1NiJ9.e30.x', headers, body: '{}' },
      attemptLog: [],
      reply: { messageId: null, error: null },
    };
    expect(toV2Delivery(detail, SELF).request).toEqual({ url: 'https://r.example/h?token=***&signed_request=***', headers, body: '{}' });
    expect(toV2Delivery({ ...detail, request: { ...detail.request, url: 'https://r.example/h' } }, SELF).request.url).toBe('https://r.example/h');
    expect(toV2Delivery({ ...detail, request: { url: null, headers: null, body: '{}' } }, SELF).request.url).toBeNull();
  });
});

describe('v2 delivery statistics presenter', () => {
  it('shows the statistics in v2 names, latency in ms, with the link given', () => {
    const bucket = { start: '2026-03-01T10:00:00.000Z', delivered: 3, retried: 1, failed: 0, pending: 2, p50Ms: 12.5, p99Ms: null };
    const stats: DeliveryStatsView = {
      since: '2026-03-01T10:00:00.000Z', until: '2026-03-01T10:30:00.000Z', bucket: 'hour',
      totals: { delivered: 3, retried: 1, failed: 0, pending: 2 }, latency: { p50Ms: 12.5, p99Ms: 40 }, buckets: [bucket],
    };
    expect(toV2DeliveryStats(stats, `${SELF}/delivery-stats?since=x&bucket=hour`)).toEqual({
      since: '2026-03-01T10:00:00.000Z', until: '2026-03-01T10:30:00.000Z', bucket: 'hour',
      totals: { delivered: 3, retried: 1, failed: 0, pending: 2 },
      latency_ms: { p50: 12.5, p99: 40 },
      buckets: [{ start: '2026-03-01T10:00:00.000Z', delivered: 3, retried: 1, failed: 0, pending: 2, p50_ms: 12.5, p99_ms: null }],
      links: { self: `${SELF}/delivery-stats?since=x&bucket=hour` },
    });
  });
});

import type { DeliveryDetailView, DeliveryView } from '@app/contracts';
import { toV2Delivery, toV2DeliveryItem } from './webhook-deliveries.presenter';

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

  it("masks the request's URL for whoever is not the webhook's creator, as the webhook's own URL is", () => {
    const detail: DeliveryDetailView = {
      ...item,
      request: { url: 'https://r.example/h?token=s3cr3t&x=1', headers: { 'webhook-id': ID }, body: '{}' },
      attemptLog: [],
      reply: { messageId: null, error: null },
    };
    expect(toV2Delivery(detail, SELF, true).request).toEqual({ ...detail.request, url: 'https://r.example/h?token=***&x=***' });
    expect(toV2Delivery(detail, SELF).request).toEqual(detail.request);
    expect(toV2Delivery({ ...detail, request: { url: null, headers: null, body: '{}' } }, SELF, true).request.url).toBeNull();
  });
});

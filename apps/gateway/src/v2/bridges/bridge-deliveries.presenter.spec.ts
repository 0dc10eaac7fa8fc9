import type { DeliveryDetailView } from '@app/contracts';
import { toV2BridgeDelivery, toV2BridgeTest } from './bridge-deliveries.presenter';

const SELF = 'https://chat.example.test/v2/room/3/bridge/9';
const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

const detail = (request: DeliveryDetailView['request']): DeliveryDetailView => ({
  id: ID, webhookId: 9, event: 'room_message', status: 'delivered', created: '2026-01-01T00:00:00.000Z', attempts: 1, nextAttemptAt: null,
  lastAttempt: { attempt: 1, at: '2026-01-01T00:00:00.100Z', statusCode: 200, durationMs: 12, error: null },
  request,
  attemptLog: [{ attempt: 1, at: '2026-01-01T00:00:00.100Z', statusCode: 200, durationMs: 12, error: null, responseHeaders: { 'content-type': 'text/plain' }, responseBody: 'ok' }],
  reply: { messageId: null, error: null },
});

describe('a bridge\'s delivery as v2 shows it', () => {
  it('masks the request\'s URL past its first path segment, and the value of a header named as a secret', () => {
    const v = toV2BridgeDelivery(detail({
      url: 'https://matrix.example.org/_matrix/client/v3/rooms/!abc:example.org/send/m.room.message/txn',
      headers: { 'content-type': 'application/json', Authorization: 'Bearer syt_secret_token' },
      body: '{"msgtype":"m.text"}',
    }), SELF);
    expect(v.request).toEqual({
      url: 'https://matrix.example.org/_matrix/***',
      headers: { 'content-type': 'application/json', Authorization: '***' },
      body: '{"msgtype":"m.text"}',
    });
    expect(JSON.stringify(v)).not.toContain('syt_secret_token');
    expect(v.links).toEqual({ self: `${SELF}/delivery/${ID}` });
    expect(v.attempts).toEqual([{ attempt: 1, at: '2026-01-01T00:00:00.100Z', status_code: 200, duration_ms: 12, error: null, response_headers: { 'content-type': 'text/plain' }, response_body: 'ok' }]);
  });

  it('keeps a bridge that is gone as the log has it: no URL, no headers', () => {
    expect(toV2BridgeDelivery(detail({ url: null, headers: null, body: '{}' }), SELF).request).toEqual({ url: null, headers: null, body: '{}' });
  });

  it('answers a test with the platform\'s status and body', () => {
    expect(toV2BridgeTest({ status: 429, body: 'rate_limited', outcome: 'retry', durationMs: 40 })).toEqual({ status: 429, body: 'rate_limited', outcome: 'retry', duration_ms: 40 });
  });
});

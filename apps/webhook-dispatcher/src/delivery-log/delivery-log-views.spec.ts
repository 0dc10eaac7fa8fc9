import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SecretBox } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { deliveryIdOf } from '../delivery/delivery-job';
import { deliveryRequest } from '../delivery/delivery-request';
import { lastRequestOf, shortened, shownRequest, toDeliveryDetail, toDeliveryView } from './delivery-log-views';
import { bridgeMessageBody } from '../bridges/bridge-delivery';
import type { DeliveryRow, DetailRow } from './delivery-log.repository';

const box = new SecretBox([{ id: 'k1', key: randomBytes(32) }]);
const id = deliveryIdOf('event-1', 7);
const created = new Date('2026-01-01T00:00:00.000Z');
const lastAt = new Date('2026-01-01T00:00:05.000Z');
const base: DeliveryRow = {
  id, webhook_id: 7, event: 'room_message', status: 'failed', created_at: created, attempts: 3, next_attempt_at: null,
  last_attempt: 3, last_at: lastAt, last_status: 500, last_duration_ms: 41, last_error: null, last_repeats: null,
};
const registration = (over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id: 7, roomId: 3, event: 'room_message', url: 'https://receiver.example/hook?team=ops', pattern: null, name: 'Echo',
  authentication: 'jwt', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
  secret: 'registration-secret-1', userId: 5, ...over,
});
const detailRow = (over: Partial<DetailRow> = {}): DetailRow => ({
  ...base, event_id: 'event-1', room_id: 3, envelope: '{"event":"room_message","item":{"n":1},"webhook_id":7}', actor_user_id: 9,
  reply_depth: 1, traceparent: null, schedule_offset: null, registrations_version: null, ordered: false, reply_message_id: null, reply_error: null, ...over,
});

describe('delivery log views', () => {
  it('shows an item with its latest attempt, and no attempt before the first', () => {
    expect(toDeliveryView(base)).toEqual({
      id, webhookId: 7, event: 'room_message', status: 'failed', created: '2026-01-01T00:00:00.000Z', attempts: 3, nextAttemptAt: null,
      lastAttempt: { attempt: 3, at: '2026-01-01T00:00:05.000Z', statusCode: 500, durationMs: 41, error: null },
    });
    const pending = { ...base, status: 'pending' as const, attempts: 0, last_attempt: null, last_at: null, last_status: null, last_duration_ms: null };
    expect(toDeliveryView(pending).lastAttempt).toBeNull();
  });

  describe('an attempt made twice (its further requests kept as repeats)', () => {
    const repeat = (startedAt: string, status: number | null, error: string | null = null) => ({
      started_at: startedAt, duration_ms: 7, status, error, response_excerpt: null, response_headers: null,
    });

    it('shows the request that started last', () => {
      const row = { ...base, last_repeats: [repeat('2026-01-01T00:00:09.000Z', 502), repeat('2026-01-01T00:00:06.000Z', 503)] };
      expect(toDeliveryView(row).lastAttempt).toEqual({ attempt: 3, at: '2026-01-01T00:00:09.000Z', statusCode: 502, durationMs: 7, error: null });
      // The row's own request, when it is the latest.
      expect(lastRequestOf({ ...base, last_repeats: [repeat('2026-01-01T00:00:01.000Z', null, 'timeout: no answer')] })?.statusCode).toBe(500);
    });

    it('of a delivered delivery, shows the request that delivered it, even when a later one failed', () => {
      // The receiver answered 204 to the first request; the copy made after a crash timed out.
      const row = { ...base, status: 'delivered' as const, last_status: 204, last_repeats: [repeat('2026-01-01T00:00:08.000Z', null, 'timeout: no answer within 1500 ms')] };
      expect(toDeliveryView(row).lastAttempt).toEqual({ attempt: 3, at: '2026-01-01T00:00:05.000Z', statusCode: 204, durationMs: 41, error: null });
      // The row's request failed and the repeat delivered it: the repeat.
      const other = { ...base, status: 'delivered' as const, last_status: 500, last_repeats: [repeat('2026-01-01T00:00:04.000Z', 200)] };
      expect(toDeliveryView(other).lastAttempt?.statusCode).toBe(200);
    });

    it('ignores a repeat it cannot read, and shows the detail\'s request as of the request shown', () => {
      const unreadable = { ...base, last_repeats: [{ ...repeat('not a time', 200) }] };
      expect(toDeliveryView(unreadable).lastAttempt?.at).toBe('2026-01-01T00:00:05.000Z');
      const row = detailRow({ last_repeats: [repeat('2026-01-01T00:00:09.000Z', 502)] });
      const shown = toDeliveryDetail(row, [], registration(), new Date(), box).request.headers?.['webhook-timestamp'];
      expect(shown).toBe(String(Date.parse('2026-01-01T00:00:09.000Z') / 1000));
    });
  });

  it('shows when the next attempt is due only while one is', () => {
    const due = new Date('2026-01-01T00:05:00.000Z');
    expect(toDeliveryView({ ...base, status: 'retrying', next_attempt_at: due }).nextAttemptAt).toBe('2026-01-01T00:05:00.000Z');
    expect(toDeliveryView({ ...base, status: 'cancelled', next_attempt_at: due }).nextAttemptAt).toBeNull();
  });

  it('cuts credentials to their first eight characters', () => {
    expect(shortened('eyJhbGciOiJIUzI1NiJ9.payload.sig')).toBe('eyJhbGci…');
    expect(shortened('short')).toBe('…');
  });

  describe('the request as sent', () => {
    const job = { deliveryId: id, webhookId: 7, event: 'room_message', eventId: 'event-1', roomId: 3, attempt: 3,
      envelopeBody: '{"event":"room_message"}', createdAt: created.toISOString(), actorUserId: 9, registrationsVersion: null, replyDepth: 1 };

    it('is the request the sending code builds at that time, with the JWT and signature cut short everywhere', () => {
      const sent = deliveryRequest({ secret: 'registration-secret-1', job, registration: registration(), now: lastAt });
      const shown = shownRequest(job, registration(), 'registration-secret-1', lastAt);
      const token = sent.headers.Authorization.replace('JWT ', '');
      expect(shown).toEqual({
        url: `https://receiver.example/hook?team=ops&signed_request=${token.slice(0, 8)}…`,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': '24',
          'User-Agent': 'chat-room-service-webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(lastAt.getTime() / 1000),
          'webhook-signature': `${sent.headers['webhook-signature'].slice(0, 11)}…`,
          Authorization: `JWT ${token.slice(0, 8)}…`,
        },
        body: '{"event":"room_message"}',
      });
      const all = JSON.stringify(shown);
      for (const secret of ['registration-secret-1', token, sent.headers['webhook-signature'].slice(3)]) expect(all).not.toContain(secret);
      // The subject is the user who caused the event, as on the real attempt.
      expect(jwt.decode(token)).toMatchObject({ sub: '9', iss: '7' });
    });

    it('has no JWT without authentication: jwt', () => {
      const shown = shownRequest(job, registration({ authentication: 'none' }), 'registration-secret-1', lastAt);
      expect(shown.url).toBe('https://receiver.example/hook?team=ops');
      expect(Object.keys(shown.headers)).toEqual(['Content-Type', 'Content-Length', 'User-Agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
    });
  });

  it('shows a bridge\'s delivery as its platform was sent it: its URL masked, no access token', () => {
    const envelope = bridgeMessageBody({
      event: 'room_notification', deliveryId: id,
      payload: { room: { id: 3, name: 'Ops' }, notify: false, message: { id: 'n1', from: 'CI', message: 'green', message_format: 'text', color: 'green' } },
    });
    const matrix = registration({
      url: 'https://matrix.example.org', secret: 'sealed-unused',
      bridge: { kind: 'matrix', events: ['room_notification'], matrixRoomId: '!ops:example.org', matrixAccessToken: box.seal('syt_T0ken', 'webhooks.bridge_token:7') },
    });
    const shown = toDeliveryDetail(detailRow({ envelope, event: 'room_notification' }), [], matrix, new Date(), box).request;
    expect(shown.url).toBe('https://matrix.example.org/_matrix/***');
    expect(shown.headers).not.toHaveProperty('Authorization');
    expect(JSON.parse(shown.body)).toMatchObject({ msgtype: 'm.notice' });
    const slack = registration({ url: 'https://hooks.slack.com/services/T0/B0/S3cretSlackPath', secret: 'sealed-unused', bridge: { kind: 'slack', events: ['room_notification'], matrixRoomId: null, matrixAccessToken: null } });
    const slackShown = toDeliveryDetail(detailRow({ envelope, event: 'room_notification' }), [], slack, new Date(), box).request;
    expect(slackShown.url).toBe('https://hooks.slack.com/services/***');
    expect(JSON.parse(slackShown.body)).toMatchObject({ username: 'CI', attachments: [{ color: 'good' }] });
  });

  it('shows a delivery in full: every attempt with its answer, the reply; the stored body when the webhook is gone', () => {
    const attempts = [1, 2, 3].map((n) => ({
      attempt: n, started_at: new Date(created.getTime() + n * 1000), duration_ms: 10 * n, status: n === 3 ? 500 : null,
      error: n === 3 ? null : 'timeout: no answer within 10000 ms', response_excerpt: n === 3 ? 'boom' : null,
      response_headers: n === 3 ? { 'content-type': 'text/plain' } : null,
    }));
    const d = toDeliveryDetail(detailRow({ reply_error: 'The reply could not be posted: room archived' }), attempts, registration(), new Date(), box);
    expect(d.attemptLog).toEqual([
      { attempt: 1, at: '2026-01-01T00:00:01.000Z', statusCode: null, durationMs: 10, error: 'timeout: no answer within 10000 ms', responseHeaders: null, responseBody: null },
      { attempt: 2, at: '2026-01-01T00:00:02.000Z', statusCode: null, durationMs: 20, error: 'timeout: no answer within 10000 ms', responseHeaders: null, responseBody: null },
      { attempt: 3, at: '2026-01-01T00:00:03.000Z', statusCode: 500, durationMs: 30, error: null, responseHeaders: { 'content-type': 'text/plain' }, responseBody: 'boom' },
    ]);
    expect(d.reply).toEqual({ messageId: null, error: 'The reply could not be posted: room archived' });
    expect(d.request.headers!['webhook-timestamp']).toBe(String(lastAt.getTime() / 1000));
    expect(d.request.body).toBe('{"event":"room_message","item":{"n":1},"webhook_id":7}');

    expect(toDeliveryDetail(detailRow(), [], undefined, new Date(), box).request)
      .toEqual({ url: null, headers: null, body: '{"event":"room_message","item":{"n":1},"webhook_id":7}' });
  });
});

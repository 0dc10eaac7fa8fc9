import { randomBytes } from 'node:crypto';
import { createLogger, SecretBox } from '@app/common';
import type { DeliveryJob } from '../delivery/delivery-job';
import type { AttemptResult } from '../delivery/delivery-decisions';
import { BridgeRegistration, bridgeMessageBody, BridgeRequest } from './bridge-delivery';
import { BridgeRateLimiter } from './bridge-rate-limit';
import { BridgeSender } from './bridge-sender';

const box = new SecretBox([{ id: 'k1', key: randomBytes(32) }]);
const logger = createLogger('test', 'silent');
const discord = {
  id: 21, roomId: 3, event: 'room_message', url: 'https://discord.com/api/webhooks/123/T0kenPart', pattern: null, name: '',
  authentication: 'none', delivery: 'ordered', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
  secret: 'sealed-unused', userId: 5, bridge: { kind: 'discord', events: ['room_message'], matrixRoomId: null, matrixAccessToken: null },
} as BridgeRegistration;

// 10,000 characters in lines: Discord takes 2,000 a post, so several posts.
const text = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(40)}`).join('\n');
const job: DeliveryJob = {
  deliveryId: '00000000-0000-4000-8000-000000000021', webhookId: 21, event: 'room_message', eventId: 'e1', roomId: 3, attempt: 1,
  envelopeBody: bridgeMessageBody({ event: 'room_message', deliveryId: 'd1', payload: { room: { id: 3, name: 'Ops' }, message: { from: { id: 1, name: 'Ada' }, message: text } } }),
  createdAt: '2026-01-01T00:00:00.000Z', actorUserId: null, registrationsVersion: null, replyDepth: 1,
};
const answer = (status: number, body = '', headers: Record<string, string> = {}): AttemptResult =>
  ({ kind: 'response', status, headers, body, truncated: false, durationMs: 5 });

/** A sender whose platform answers each request in turn from `answers` (then 204), keeping what it was sent. */
function senderAnswering(answers: AttemptResult[], limiter: BridgeRateLimiter | null = null) {
  const sent: BridgeRequest[] = [];
  const sender = new BridgeSender(async (request) => {
    sent.push(request);
    return answers.shift() ?? answer(204);
  }, box, { limiter, maxWaitMs: 50 });
  return { sender, sent };
}
const contentOf = (r: BridgeRequest) => JSON.parse(r.body).content as string;

describe('BridgeSender', () => {
  it('sends a split message\'s posts in order, and a retry resumes at the first post not accepted', async () => {
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'spec' }, logger);
    const first = senderAnswering([answer(204), answer(429, JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.2, global: false }))], limiter);
    const failed = await first.sender.send({ registration: discord, jobs: [job], paced: false });
    expect(failed).toMatchObject({ platform: { outcome: 'retry', afterMs: 200 }, partsDone: 1, result: { kind: 'response', status: 429 } });
    expect(first.sent).toHaveLength(2);
    // Every replica waits as the platform said.
    expect((await limiter.reserve(21, 'discord')).waitMs).toBeGreaterThan(0);

    const again = senderAnswering([]);
    const done = await again.sender.send({ registration: discord, jobs: [{ ...job, partsDone: failed.partsDone }], paced: true });
    expect(done.platform).toEqual({ outcome: 'delivered' });
    const parts = [contentOf(first.sent[0]), ...again.sent.map(contentOf)];
    expect(again.sent.length).toBeGreaterThan(1);
    expect(done.partsDone).toBe(parts.length);
    // Each part once, in order: joined, they hold every line once.
    const joined = parts.join('\n');
    for (let i = 0; i < 200; i += 37) expect(joined.split(`line ${String(i).padStart(3, '0')} `).length).toBe(2);
    expect(joined.indexOf('line 199')).toBeGreaterThan(joined.indexOf('line 000'));
  });

  it('holds the next part when the platform says its bucket is spent, even after a first post the lane paced', async () => {
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'spec-spent' }, logger);
    const { sender, sent } = senderAnswering([answer(204, '', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '2.000' })], limiter);
    const held = await sender.send({ registration: discord, jobs: [job], paced: true });
    expect(sent).toHaveLength(1);
    expect(held).toMatchObject({ platform: { outcome: 'retry' }, partsDone: 1, result: { kind: 'failure', failure: 'busy' } });
  });

  it('stops at a "never again" answer, and keeps the URL\'s token among the secrets to redact', async () => {
    const { sender, sent } = senderAnswering([answer(404, JSON.stringify({ message: 'Unknown Webhook', code: 10015 }))]);
    const gone = await sender.send({ registration: discord, jobs: [job], paced: true });
    expect(gone).toMatchObject({ platform: { outcome: 'never', reason: 'Discord: HTTP 404 10015 Unknown Webhook' }, partsDone: 0 });
    expect(sent).toHaveLength(1);
    expect(gone.secrets).toContain('T0kenPart');
  });

  it('ends the attempt as a retry, sending nothing more, when the budget\'s wait is longer than it may wait', async () => {
    const limiter = new BridgeRateLimiter(null, { keyPrefix: 'spec-wait' }, logger);
    await limiter.penalize(21, Date.now() + 5_000);
    const { sender, sent } = senderAnswering([], limiter);
    const waited = await sender.send({ registration: discord, jobs: [job], paced: false });
    expect(sent).toHaveLength(0);
    expect(waited).toMatchObject({ platform: { outcome: 'retry' }, partsDone: 0, result: { kind: 'failure', failure: 'busy' } });
  });
});

import { attemptAlreadyMade, AttemptResult, DeliveryDecisions, excerpt, keptHeaders, RESPONSE_EXCERPT_BYTES, RESPONSE_HEADERS_MAX } from './delivery-decisions';
import { DeliveryJob, deliveryIdOf } from './delivery-job';
import type { PlatformAnswer } from '../bridges/platform-answers';

const job = (attempt = 1): DeliveryJob => ({
  deliveryId: deliveryIdOf('event-1', 7), webhookId: 7, event: 'room_message', eventId: 'event-1', roomId: 3, attempt,
  envelopeBody: '{"event":"room_message"}', createdAt: '2026-01-01T00:00:00.000Z', replyDepth: 1, actorUserId: null, registrationsVersion: null,
});
const now = new Date('2026-01-01T00:00:10.000Z');
const startedAt = new Date('2026-01-01T00:00:09.000Z');
const answer = (status: number, body = '', headers: Record<string, string> = {}): AttemptResult =>
  ({ kind: 'response', status, headers, body, truncated: false, durationMs: 12.4 });
const failure = (kind: 'refused' | 'timeout' | 'connection' | 'invalid_url', message = 'nope'): AttemptResult =>
  ({ kind: 'failure', failure: kind, message, durationMs: 3 });

describe('DeliveryDecisions', () => {
  // No jitter: random() = 0.5 gives the scheduled wait itself.
  const decisions = new DeliveryDecisions([200, 400, 400, 60_000], () => 0.5);
  const decide = (result: AttemptResult, attempt = 1, secrets: string[] = []) =>
    decisions.decide({ job: job(attempt), result, startedAt, secrets, now });

  it('has a delay tier per distinct wait of the schedule with room for its jitter, one for Retry-After, and tiers between', () => {
    expect(decisions.tiers).toEqual([220, 440, 880, 1_760, 3_520, 7_040, 14_080, 28_160, 56_320, 66_000, 120_000]);
  });

  it('parks every retry in the queue of its own wait, jittered up or down: none waits behind a later one', () => {
    // The default schedule: a first retry jittered to 5.5 s once went to the 5 min queue, and a
    // queue expires only its head, so it waited there behind second retries (up to 5 min).
    const schedule = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];
    for (const random of [0, 0.25, 0.5, 0.75, 0.999999]) {
      const jittered = new DeliveryDecisions(schedule, () => random);
      const queues = schedule.map((_, i) => jittered.decide({ job: job(i + 1), result: answer(503), startedAt, secrets: [], now }).retry);
      queues.forEach((retry, i) => {
        // In a tier of its own entry (at most the entry with its jitter), never a later entry's.
        expect(retry?.tierMs).toBeLessThanOrEqual(Math.round(schedule[i] * 1.1));
        expect(retry?.delayMs).toBeGreaterThanOrEqual(schedule[i] * 0.9);
        expect(retry?.delayMs).toBeLessThanOrEqual(retry?.tierMs ?? 0);
      });
      // A later retry of its tier parked before it can hold it back by up to a fifth of its wait
      // (2 h: 24 min); the job is back by its tier, the time the sweep of stalled retries waits for.
      const fourth = jittered.decide({ job: job(4), result: answer(503), startedAt, secrets: [], now }).state;
      expect(fourth.parkedUntil).toEqual(new Date(now.getTime() + 7_920_000));
    }
  });

  it('records a 2xx as delivered, with nothing to retry', () => {
    const d = decide(answer(204));
    expect(d.record).toEqual({
      deliveryId: job().deliveryId, attempt: 1, startedAt, durationMs: 12, status: 204, error: null, responseExcerpt: null, responseHeaders: {},
    });
    expect(d.state).toEqual({ status: 'delivered', attempts: 1, lastStatus: 204, lastError: null, nextAttemptAt: null, parkedUntil: null });
    expect(d.retry).toBeNull();
    expect(d.reply).toEqual({ kind: 'none' });
  });

  it('reads a 200 with a JSON body as a reply', () => {
    const d = decide(answer(200, '{"message":"pong","color":"green"}', { 'content-type': 'application/json; charset=utf-8' }));
    expect(d.state.status).toBe('delivered');
    expect(d.reply).toEqual({ kind: 'notification', notification: expect.objectContaining({ message: 'pong', color: 'green' }) });
    expect(d.record.responseExcerpt).toBe('{"message":"pong","color":"green"}');
    expect(decide(answer(200, '{"color":"green"}', { 'content-type': 'application/json' })).reply.kind).toBe('invalid');
  });

  it('retries a 5xx, a 429 and a timeout on the schedule, in the tier of the wait, with the next attempt number', () => {
    const d = decide(answer(500, 'boom'));
    expect(d.state).toEqual({
      status: 'retrying', attempts: 1, lastStatus: 500, lastError: null, nextAttemptAt: new Date(now.getTime() + 200),
      // Back by its tier at the latest: the sweep of stalled retries waits for that.
      parkedUntil: new Date(now.getTime() + 220),
    });
    expect(d.retry).toEqual({ job: { ...job(), attempt: 2 }, delayMs: 200, tierMs: 220 });
    expect(d.record.responseExcerpt).toBe('boom');
    expect(d.reply).toEqual({ kind: 'none' });

    expect(decide(answer(429), 2).retry).toMatchObject({ job: { attempt: 3 }, delayMs: 400, tierMs: 440 });
    const timeout = decide(failure('timeout', 'no answer within 10000 ms'), 3);
    expect(timeout.record).toMatchObject({ status: null, error: 'timeout: no answer within 10000 ms', durationMs: 3 });
    expect(timeout.retry).toMatchObject({ job: { attempt: 4 }, delayMs: 400, tierMs: 440 });
    expect(decide(failure('connection'), 4).retry).toMatchObject({ delayMs: 60_000, tierMs: 66_000 });
  });

  it('gives up when the schedule is spent', () => {
    const d = decide(answer(503), 5);
    expect(d.state).toMatchObject({ status: 'failed', attempts: 5, lastStatus: 503, nextAttemptAt: null });
    expect(d.retry).toBeNull();
  });

  it('gives up at once on a 4xx refusal, a refused address and a URL that is not one', () => {
    for (const status of [400, 401, 404, 410]) expect(decide(answer(status)).state.status).toBe('failed');
    const refused = decide(failure('refused', '127.0.0.1 is a loopback address'));
    expect(refused.state).toMatchObject({ status: 'failed', lastError: 'refused: 127.0.0.1 is a loopback address' });
    expect(refused.retry).toBeNull();
    expect(decide(failure('invalid_url')).state.status).toBe('failed');
  });

  it('retries a redirect (not followed) like a failure', () => {
    expect(decide(answer(302)).state.status).toBe('retrying');
  });

  it('honours Retry-After, within the tier a queue holds', () => {
    expect(decide(answer(503, '', { 'retry-after': '0' })).retry).toMatchObject({ delayMs: 200, tierMs: 220 });
    // 1 s asked for: the wait goes to the smallest tier that holds it (1.1 s).
    const later = new DeliveryDecisions([200, 400, 1_000], () => 0.5);
    const d = later.decide({ job: job(), result: answer(429, '', { 'retry-after': '1' }), startedAt, secrets: [], now });
    expect(d.retry).toMatchObject({ delayMs: 1_000, tierMs: 1_100 });
    // Beyond twice the longest wait: held to it, the last tier (a receiver cannot park a delivery for long).
    const short = new DeliveryDecisions([200, 400], () => 0.5);
    const e = short.decide({ job: job(), result: answer(429, '', { 'retry-after': '5' }), startedAt, secrets: [], now });
    expect(e.retry).toMatchObject({ delayMs: 800, tierMs: 800 });
  });

  it('keeps secrets out of the records', () => {
    const secret = 'S3cr3t-signing-key';
    const d = decide(answer(500, `you sent Authorization: JWT ${secret} and ${encodeURIComponent(secret)}`), 1, [secret]);
    expect(d.record.responseExcerpt).toBe('you sent Authorization: JWT [REDACTED] and [REDACTED]');
    expect(decide(failure('connection', `failed for ${secret}`), 1, [secret]).record.error).toBe('connection: failed for [REDACTED]');
  });

  it('keeps the answer\'s headers for the delivery log, none without an answer', () => {
    expect(decide(answer(500, '', { 'content-type': 'text/plain', 'x-request-id': 'r-1' })).record.responseHeaders)
      .toEqual({ 'content-type': 'text/plain', 'x-request-id': 'r-1' });
    expect(decide(failure('timeout')).record.responseHeaders).toBeNull();
  });

  describe('a redelivery (one attempt an operator asked for)', () => {
    const redelivery = (attempt: number): DeliveryJob => ({ ...job(attempt), redelivery: true });
    const decideOne = (result: AttemptResult, attempt = 4) => decisions.decide({ job: redelivery(attempt), result, startedAt, secrets: [], now });

    it('is delivered when it succeeds, with its reply', () => {
      const d = decideOne(answer(200, '{"message":"pong"}', { 'content-type': 'application/json' }));
      expect(d.state).toEqual({ status: 'delivered', attempts: 4, lastStatus: 200, lastError: null, nextAttemptAt: null, parkedUntil: null });
      expect(d.reply.kind).toBe('notification');
    });

    it('is not retried when it fails, even where a first attempt would be: the delivery has failed', () => {
      for (const result of [answer(503), answer(429, '', { 'retry-after': '1' }), failure('timeout'), answer(404)]) {
        const d = decideOne(result, 1);
        expect({ retry: d.retry, status: d.state.status, next: d.state.nextAttemptAt }).toEqual({ retry: null, status: 'failed', next: null });
      }
      expect(decideOne(answer(500), 9).record).toMatchObject({ attempt: 9, status: 500 });
    });
  });

  describe('a recovered delivery (the schedule started afresh after its attempts)', () => {
    const recovered = (attempt: number, scheduleOffset: number): DeliveryJob => ({ ...job(attempt), scheduleOffset });
    const decideAfter = (attempt: number, offset: number) =>
      decisions.decide({ job: recovered(attempt, offset), result: answer(500), startedAt, secrets: [], now });

    it('waits as a first attempt would, numbering its attempts on from the ones it had', () => {
      // Five attempts spent the schedule [200, 400, 400, 60000]; recovered, the sixth waits 200 ms again.
      expect(decide(answer(500), 5).retry).toBeNull();
      const d = decideAfter(6, 5);
      expect(d.record.attempt).toBe(6);
      expect(d.retry).toEqual({ job: { ...recovered(7, 5) }, delayMs: 200, tierMs: 220 });
      expect(decideAfter(7, 5).retry).toMatchObject({ job: { attempt: 8, scheduleOffset: 5 }, delayMs: 400 });
      expect(decideAfter(9, 5).retry).toMatchObject({ delayMs: 60_000 });
    });

    it('fails for good once the fresh schedule is spent', () => {
      const d = decideAfter(10, 5);
      expect({ retry: d.retry, status: d.state.status, attempts: d.state.attempts }).toEqual({ retry: null, status: 'failed', attempts: 10 });
    });
  });
});

describe('keptHeaders', () => {
  it('keeps at most 50 headers, values cut, names lower-cased', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`X-H${i}`, 'v'.repeat(600)]));
    const kept = keptHeaders(many, []);
    expect(Object.keys(kept)).toHaveLength(RESPONSE_HEADERS_MAX);
    expect(kept['x-h0']).toBe('v'.repeat(500));
  });

  it('redacts our secrets wherever a receiver echoes them, and hides the receiver\'s own credentials', () => {
    const secret = 'jwt-or-signing-secret-1234';
    expect(keptHeaders({ 'x-echo': `got ${secret}`, 'set-cookie': 'session=abc', 'x-api-token': 't0k3n', 'content-length': '2' }, [secret]))
      .toEqual({ 'x-echo': 'got [REDACTED]', 'set-cookie': '[REDACTED]', 'x-api-token': '[REDACTED]', 'content-length': '2' });
  });
});

describe('DeliveryDecisions for a bridge (its platform\'s answer decides)', () => {
  const decisions = new DeliveryDecisions([200, 400], () => 0.5);
  const decide = (result: AttemptResult, platform: PlatformAnswer, attempt = 1) =>
    decisions.decide({ job: job(attempt), result, startedAt, secrets: ['S3cretPathToken'], now, platform });

  it('is delivered without reading a reply, even from a JSON 200', () => {
    const d = decide(answer(200, '{"message":"pong"}', { 'content-type': 'application/json' }), { outcome: 'delivered' });
    expect(d.state.status).toBe('delivered');
    expect(d.reply).toEqual({ kind: 'none' });
  });

  it('retries not before the platform\'s wait, with its reason as the error', () => {
    const d = decide(answer(429, ''), { outcome: 'retry', afterMs: 300, reason: 'Slack: HTTP 429' });
    expect(d.retry).toMatchObject({ job: { attempt: 2 }, delayMs: 300 });
    expect(d.record.error).toBe('Slack: HTTP 429');
    expect(d.state.status).toBe('retrying');
  });

  it('fails for good on `failed` and `never`, a 200 included, the secrets redacted from the reason', () => {
    expect(decide(answer(400, 'invalid_payload'), { outcome: 'failed', reason: 'Slack: HTTP 400 invalid_payload' }).state.status).toBe('failed');
    const never = decide(answer(200, 'x'), { outcome: 'never', reason: 'Teams: gone S3cretPathToken' });
    expect(never).toMatchObject({ state: { status: 'failed' }, retry: null, record: { error: 'Teams: gone [REDACTED]' } });
  });

  it('fails once the schedule is spent, and a redelivery is one attempt', () => {
    expect(decide(answer(503), { outcome: 'retry', reason: 'x' }, 3).state.status).toBe('failed');
    expect(decisions.decide({ job: { ...job(), redelivery: true }, result: answer(503), startedAt, secrets: [], now, platform: { outcome: 'retry', reason: 'x' } }).retry).toBeNull();
  });
});

describe('excerpt', () => {
  it('keeps the first KiB, cut at a character boundary, and never a part of a secret', () => {
    expect(excerpt('', [])).toBeNull();
    const long = 'é'.repeat(2000);
    const cut = excerpt(long, [])!;
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    expect(cut).toBe('é'.repeat(RESPONSE_EXCERPT_BYTES / 2));
    const secret = 'abcdefghijklmnop';
    const straddling = `${'x'.repeat(RESPONSE_EXCERPT_BYTES - 4)}${secret}`;
    expect(excerpt(straddling, [secret])).not.toContain('abcd');
    expect(excerpt('a\u0000b', [])).toBe('ab');
  });
});

describe('attemptAlreadyMade', () => {
  it('drops a job once its delivery was delivered, or its recorded attempts reached the job\'s number', () => {
    expect(attemptAlreadyMade({ attempt: 3 }, undefined)).toBe(false);
    expect(attemptAlreadyMade({ attempt: 3 }, { status: 'retrying', attempts: 2 })).toBe(false);
    expect(attemptAlreadyMade({ attempt: 3 }, { status: 'retrying', attempts: 3 })).toBe(true);
    expect(attemptAlreadyMade({ attempt: 1 }, { status: 'pending', attempts: 0 })).toBe(false);
    expect(attemptAlreadyMade({ attempt: 4 }, { status: 'delivered', attempts: 2 })).toBe(true);
    // Another chain of the same delivery ended it for good (a 410): this chain stops too.
    expect(attemptAlreadyMade({ attempt: 2 }, { status: 'failed', attempts: 1 })).toBe(true);
    // An operator's redelivery of a delivered delivery goes, once.
    expect(attemptAlreadyMade({ attempt: 3, redelivery: true }, { status: 'delivered', attempts: 2 })).toBe(false);
    expect(attemptAlreadyMade({ attempt: 3, redelivery: true }, { status: 'delivered', attempts: 3 })).toBe(true);
  });
});

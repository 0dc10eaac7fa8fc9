import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AppLogger, createLogger, GuardedHttpClient, SecretBox, secretPurpose } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { Registrations } from '../registrations/registrations';
import { ReplyPoster } from '../replies/reply-poster';
import { BatchWriter } from './batch-writer';
import { DeliveryDecisions } from './delivery-decisions';
import { DeliveryJob, deliveryIdOf } from './delivery-job';
import { DeliveryQueues } from './delivery-queues';
import { DeliveryWorker } from './delivery-worker';
import { AttemptToRecord, DeliveryProgress, DeliveryRepository } from './delivery.repository';

const registration: WebhookRegistration = {
  id: 7, roomId: 3, event: 'room_notification', url: 'https://receiver.example/hook', pattern: null, name: 'Flaky',
  authentication: 'none', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
  secret: 'registration-secret-1', userId: 5,
};
const job: DeliveryJob = {
  deliveryId: deliveryIdOf('event-1', 7), webhookId: 7, event: 'room_notification', eventId: 'event-1', roomId: 3, attempt: 2,
  envelopeBody: '{"event":"room_notification","item":{},"webhook_id":7}', createdAt: '2026-01-01T00:00:00.000Z', replyDepth: 0,
  actorUserId: null, registrationsVersion: null,
};

/** A worker whose receiver always answers 500, with the delivery log kept in memory. */
function workerWith(
  publishRetry: jest.Mock,
  options: { detachAfterMs?: number; answerAfterMs?: number; registration?: WebhookRegistration; logger?: AppLogger } = {},
) {
  const webhook = options.registration ?? registration;
  const recorded: AttemptToRecord[] = [];
  const requests: string[] = [];
  const urls: string[] = [];
  const progress = () => new Map<string, DeliveryProgress>(recorded.map((r) => [r.job.deliveryId, { status: r.state.status, attempts: r.state.attempts }]));
  const worker = new DeliveryWorker(
    { get: () => webhook, at: () => webhook, upTo: async () => true, freshSince: async () => undefined } as unknown as Registrations,
    {
      request: async (r: { url: string; headers: Record<string, string> }) => {
        requests.push(r.headers['webhook-id']);
        urls.push(r.url);
        if (options.answerAfterMs) await new Promise((done) => setTimeout(done, options.answerAfterMs));
        return { status: 500, headers: {}, body: '', truncated: false, durationMs: 1 };
      },
    } as unknown as GuardedHttpClient,
    {} as DeliveryRepository,
    new BatchWriter<AttemptToRecord>(async (items) => {
      recorded.push(...items);
    }),
    new BatchWriter<string, Map<string, DeliveryProgress>>(async () => progress()),
    { publishRetry, publishInFlight: async () => undefined } as unknown as DeliveryQueues,
    new DeliveryDecisions([200, 400, 400], () => 0.5),
    {} as ReplyPoster,
    options.logger ?? createLogger('test', 'silent'),
    { timeoutMs: 1_000, detachAfterMs: options.detachAfterMs, secrets: new SecretBox([{ id: 'k1', key: randomBytes(32) }]) },
  );
  return { worker, recorded, requests, urls };
}

describe('DeliveryWorker', () => {
  it('logs a failed attempt with the URL bare (a receiver\'s token rides in its query), and still sends the query', async () => {
    let out = '';
    const logger = pino({ level: 'debug' }, new Writable({ write(chunk, _enc, done) { out += chunk.toString(); done(); } }));
    const withKey = { ...registration, url: 'https://x.example.com/h?key=SECRETQ#frag' };
    const { worker, urls } = workerWith(jest.fn().mockResolvedValue(undefined), { registration: withKey, logger });
    expect(await worker.handle(job, { release: jest.fn() })).toBe('ack');
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('https://x.example.com/h?key=SECRETQ');
    const failed = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.msg === 'webhook delivery failed; retrying');
    expect(failed).toMatchObject({ url: 'https://x.example.com/h', status: 500, webhookId: 7 });
    expect(out).not.toContain('SECRETQ');
  });

  it('sends nothing when the signing secret cannot be decrypted: a failed attempt (unsignable), retried, its reason recorded', async () => {
    const sealedElsewhere = new SecretBox([{ id: 'gone', key: randomBytes(32) }]).seal('lost', secretPurpose.webhook(7));
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, recorded, requests } = workerWith(publishRetry, { registration: { ...registration, secret: sealedElsewhere } });
    expect(await worker.handle(job, { release: jest.fn() })).toBe('ack');
    expect(requests).toEqual([]);
    expect(publishRetry).toHaveBeenCalledWith(expect.objectContaining({ deliveryId: job.deliveryId, attempt: 3 }), expect.any(Number), 440);
    expect(recorded.map((r) => [r.record.attempt, r.state.status, r.record.error])).toEqual([
      [2, 'retrying', expect.stringMatching(/^unsignable: not sent: .*key gone, which SECRETS_KEYS does not hold/)],
    ]);
  });

  it('parks the retry of a failed attempt, records the attempt and settles the job', async () => {
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, recorded, requests } = workerWith(publishRetry);
    const release = jest.fn();
    expect(await worker.handle(job, { release })).toBe('ack');
    expect(requests).toEqual([job.deliveryId]);
    expect(publishRetry).toHaveBeenCalledWith(expect.objectContaining({ deliveryId: job.deliveryId, attempt: 3 }), expect.any(Number), 440);
    expect(recorded.map((r) => [r.record.attempt, r.state.status])).toEqual([[2, 'retrying']]);
    expect(release).toHaveBeenCalled();
  });

  it('leaves an attempt whose retry the broker did not take unrecorded, so the job handed out again makes it again', async () => {
    // The broker went away with the retry unconfirmed ('channel closed'), then came back.
    const publishRetry = jest.fn().mockRejectedValueOnce(new Error('channel closed')).mockResolvedValue(undefined);
    const { worker, recorded, requests } = workerWith(publishRetry);
    const release = jest.fn();
    expect(await worker.handle(job, { release })).toBe('requeue');
    expect(release).not.toHaveBeenCalled();
    // Recorded, the attempt would stop the job that comes back (it was made), and no retry is parked anywhere.
    expect(recorded).toEqual([]);

    expect(await worker.handle(job, { release, redelivered: true })).toBe('ack');
    expect(requests).toEqual([job.deliveryId, job.deliveryId]);
    expect(publishRetry).toHaveBeenCalledTimes(2);
    expect(recorded.map((r) => [r.record.attempt, r.state.status])).toEqual([[2, 'retrying']]);
  });

  it('sends a copy of a job whose first copy is still being made back to the queue when the first could not park its retry', async () => {
    // After an outage the broker hands the job out again while the first copy (whose channel is
    // gone) still waits for its retry's confirm; the first then gives up and cannot settle.
    let fail!: (err: Error) => void;
    const publishRetry = jest.fn()
      .mockReturnValueOnce(new Promise((_resolve, reject) => (fail = reject)))
      .mockResolvedValue(undefined);
    const { worker, recorded, requests } = workerWith(publishRetry);
    const first = worker.handle(job, { release: jest.fn() });
    await new Promise((r) => setTimeout(r, 10));
    const copy = worker.handle(job, { release: jest.fn(), redelivered: true });
    fail(new Error('timeout'));
    expect(await first).toBe('requeue');
    expect(await copy).toBe('requeue');
    expect(requests).toHaveLength(1);
    expect(recorded).toEqual([]);
  });

  it('sends the guard copy of a detached attempt back to the queue when it arrives before that attempt could park its retry', async () => {
    // The attempt outlasted detachAfterMs: its guard copy was parked and its job settled. Then its
    // retry's publish waited out a broker outage, longer than the guard copy's expiration.
    let fail!: (err: Error) => void;
    const publishRetry = jest.fn()
      .mockReturnValueOnce(new Promise((_resolve, reject) => (fail = reject)))
      .mockResolvedValue(undefined);
    const { worker, recorded, requests } = workerWith(publishRetry, { detachAfterMs: 5, answerAfterMs: 30 });
    const release = jest.fn();
    const first = worker.handle(job, { release });
    await new Promise((r) => setTimeout(r, 60));
    expect(release).toHaveBeenCalled();
    const guardCopy = worker.handle({ ...job, guard: true }, { release: jest.fn() });
    fail(new Error('timeout'));
    // Detached: the first answers 'ack' (its message is settled already) and leaves the attempt to the guard copy.
    expect(await first).toBe('ack');
    expect(await guardCopy).toBe('requeue');
    expect(requests).toHaveLength(1);
    expect(recorded).toEqual([]);
  });

  it('looks up a first attempt that may have been published twice: made once', async () => {
    const { worker, requests } = workerWith(jest.fn().mockResolvedValue(undefined));
    const first = { ...job, attempt: 1 };
    // Made at once by the replica that took its event (its retry parked, the attempt recorded).
    expect(await worker.handle(first, { release: () => undefined })).toBe('ack');
    // A second copy of it reaches the queue (its publish's confirm was lost when the connection dropped).
    expect(await worker.handle(first, { release: () => undefined, mayBeCopy: true })).toBe('ack');
    expect(requests).toEqual([first.deliveryId]);
  });

  it('drops a copy of a job whose first copy made the attempt and parked its retry', async () => {
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, requests } = workerWith(publishRetry);
    const [first, copy] = await Promise.all([worker.handle(job, { release: jest.fn() }), worker.handle(job, { release: jest.fn(), redelivered: true })]);
    expect([first, copy]).toEqual(['ack', 'ack']);
    expect(requests).toHaveLength(1);
    expect(publishRetry).toHaveBeenCalledTimes(1);
  });
});

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AppLogger, createLogger, GuardedHttpClient, SecretBox, secretPurpose } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { bridgeMessageBody } from '../bridges/bridge-delivery';
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

/** A logger whose lines are kept, parsed. */
function capturedLogger(): { logger: AppLogger; lines: () => Array<Record<string, unknown>> } {
  let out = '';
  const logger = pino({ level: 'debug' }, new Writable({ write(chunk, _enc, done) { out += chunk.toString(); done(); } }));
  return { logger, lines: () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

/** A worker whose receiver always answers 500, with the delivery log kept in memory. */
function workerWith(
  publishRetry: jest.Mock,
  options: {
    detachAfterMs?: number; answerAfterMs?: number; logger?: AppLogger;
    /** null: the webhook is gone (deleted since the job was made). */
    registration?: WebhookRegistration | null;
    repository?: Partial<DeliveryRepository>;
    /** Every write of attempt records fails (the database is down). */
    recordsFail?: boolean;
  } = {},
) {
  const webhook = options.registration === undefined ? registration : options.registration ?? undefined;
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
    (options.repository ?? {}) as DeliveryRepository,
    new BatchWriter<AttemptToRecord>(async (items) => {
      if (options.recordsFail) throw new Error('database unavailable');
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

type EntryPoint = 'handle' | 'attemptInLane';

/**
 * Makes the job's attempt through an entry point: a concurrent job (handle, its retry parked
 * through `publishRetry`) or an ordered one (attemptInLane, its retry answered to the lane).
 * Answers the attempt number of the retry asked for, null when the delivery ended.
 */
async function attemptThrough(entry: EntryPoint, worker: DeliveryWorker, j: DeliveryJob, publishRetry: jest.Mock): Promise<number | null> {
  if (entry === 'attemptInLane') {
    const step = await worker.attemptInLane(j);
    await step.recorded;
    return step.next?.attempt ?? null;
  }
  expect(await worker.handle(j, { release: () => undefined })).toBe('ack');
  return publishRetry.mock.calls.at(-1)?.[0].attempt ?? null;
}

describe.each<EntryPoint>(['handle', 'attemptInLane'])('DeliveryWorker.%s (one attempt path for concurrent and ordered deliveries)', (entry) => {
  it('cancels the delivery of a webhook that is gone, without a request, even when marking it cancelled fails', async () => {
    const { logger, lines } = capturedLogger();
    const markCancelled = jest.fn().mockRejectedValue(new Error('database unavailable'));
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, requests, recorded } = workerWith(publishRetry, { registration: null, repository: { markCancelled }, logger });
    expect(await attemptThrough(entry, worker, job, publishRetry)).toBeNull();
    expect(markCancelled).toHaveBeenCalledWith(job);
    expect(requests).toEqual([]);
    expect(recorded).toEqual([]);
    expect(lines().map((l) => l.msg)).toEqual(['delivery cancelled: the webhook is gone', 'could not record the delivery']);
  });

  it('sends nothing to a disabled webhook: logged, and recorded as a failed attempt of a failed delivery', async () => {
    const { logger, lines } = capturedLogger();
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, requests, recorded } = workerWith(publishRetry, { registration: { ...registration, enabled: false }, logger });
    expect(await attemptThrough(entry, worker, job, publishRetry)).toBeNull();
    expect(requests).toEqual([]);
    expect(recorded.map((r) => [r.record.attempt, r.state.status, r.record.error])).toEqual([[2, 'failed', 'webhook disabled']]);
    expect(lines()).toEqual([expect.objectContaining({ msg: 'delivery not sent: the webhook is disabled', deliveryId: job.deliveryId, webhookId: 7, attempt: 2 })]);
  });

  it('sends nothing when the signing secret cannot be decrypted: a failed attempt (unsignable), retried, its reason recorded', async () => {
    const sealedElsewhere = new SecretBox([{ id: 'gone', key: randomBytes(32) }]).seal('lost', secretPurpose.webhook(7));
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, recorded, requests } = workerWith(publishRetry, { registration: { ...registration, secret: sealedElsewhere } });
    expect(await attemptThrough(entry, worker, job, publishRetry)).toBe(3);
    expect(requests).toEqual([]);
    expect(recorded.map((r) => [r.record.attempt, r.state.status, r.record.error])).toEqual([
      [2, 'retrying', expect.stringMatching(/^unsignable: not sent: .*key gone, which SECRETS_KEYS does not hold/)],
    ]);
  });

  it('makes the attempt and asks for its retry when its record cannot be written (the attempt happened: the record is what is lost)', async () => {
    const { logger, lines } = capturedLogger();
    const publishRetry = jest.fn().mockResolvedValue(undefined);
    const { worker, requests } = workerWith(publishRetry, { recordsFail: true, logger });
    expect(await attemptThrough(entry, worker, job, publishRetry)).toBe(3);
    expect(requests).toEqual([job.deliveryId]);
    expect(lines().map((l) => l.msg)).toEqual(['webhook delivery failed; retrying', 'could not record the delivery']);
  });
});

describe('DeliveryWorker', () => {
  it('logs a failed attempt with the URL bare (a receiver\'s token rides in its query), and still sends the query', async () => {
    const { logger, lines } = capturedLogger();
    const withKey = { ...registration, url: 'https://x.example.com/h?key=SECRETQ#frag' };
    const { worker, urls } = workerWith(jest.fn().mockResolvedValue(undefined), { registration: withKey, logger });
    expect(await worker.handle(job, { release: jest.fn() })).toBe('ack');
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('https://x.example.com/h?key=SECRETQ');
    const failed = lines().find((l) => l.msg === 'webhook delivery failed; retrying');
    expect(failed).toMatchObject({ url: 'https://x.example.com/h', status: 500, webhookId: 7 });
    expect(JSON.stringify(lines())).not.toContain('SECRETQ');
  });

  it('posts a bridge\'s message in its platform\'s format, logging and recording it without its URL\'s token', async () => {
    const { logger, lines } = capturedLogger();
    const slack: WebhookRegistration = {
      ...registration, url: 'https://hooks.slack.com/services/T0AB/B0CD/S3cretPathToken', delivery: 'ordered',
      bridge: { kind: 'slack', events: ['room_notification'], matrixRoomId: null, matrixAccessToken: null },
    };
    const bridged = { ...job, envelopeBody: bridgeMessageBody({ event: 'room_notification', deliveryId: job.deliveryId, payload: { room: { id: 3, name: 'Ops' }, message: { from: 'CI', message: 'hi', message_format: 'text' } } }) };
    const { worker, urls, recorded } = workerWith(jest.fn(), { registration: slack, logger });
    const step = await worker.attemptInLane(bridged);
    expect(urls).toEqual(['https://hooks.slack.com/services/T0AB/B0CD/S3cretPathToken']);
    // A 500 is retried on the schedule; the record and the log say the platform's words.
    expect(step.next).toMatchObject({ attempt: 3, partsDone: 0 });
    await step.recorded;
    expect(recorded[0].record).toMatchObject({ status: 500, error: 'Slack: HTTP 500' });
    const failed = lines().find((l) => l.msg === 'webhook delivery failed; retrying');
    expect(failed).toMatchObject({ url: 'https://hooks.slack.com/services/***', kind: 'slack' });
    expect(JSON.stringify(lines())).not.toContain('S3cretPathToken');
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

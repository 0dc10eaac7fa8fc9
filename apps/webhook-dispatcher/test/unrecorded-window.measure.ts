/**
 * A measurement, not a test (no *.int-spec name: no suite runs it): how long a 2xx stays
 * unrecorded, from the moment the receiver answered to the commit of its attempt's record,
 * and so how many clean 2xx a `kill -9` finds unrecorded (the delivery-faults bench's "sent
 * again after a 2xx"). The real DeliveryWorker, HTTP client, DeliveryRepository and BatchWriter
 * against PostgreSQL; the receiver is another process (60% 204, 40% 500) that stamps each
 * answer with the time it gave it; the rooms service and the broker are in-memory stand-ins.
 * `MEASURE_CPU_MS` of busy work per answer stands for the rest of a loaded dispatcher's event loop.
 *
 *   MEASURE_RATE=400 MEASURE_SECONDS=5 MEASURE_CPU_MS=2 MEASURE_URGENT=1 npx jest \
 *     apps/webhook-dispatcher/test/unrecorded-window.measure.ts --selectProjects integration --testMatch '**'
 *
 * With MEASURE_WRITE_MS=n each write is a wait of n ms instead (the recorder's policy alone,
 * free of a shared database's noise).
 *
 * With MEASURE_LANE=1 it measures one ordered lane instead: MEASURE_RATE * MEASURE_SECONDS
 * deliveries, all answered 204, made one at a time (the lane's rate, and its window).
 *
 * "unrecorded at an instant" is the sum of the windows over the run's length (Little's law):
 * the 2xx a kill at a random moment finds answered but not committed.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createLogger, GuardedHttpClient, SecretBox } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { DataSource } from 'typeorm';
import { dropTestDatabase, testDatabaseUrl } from '../../../test/support/common';
import { openDispatcherDatabase } from '../src/database/database';
import { BatchWriter } from '../src/delivery/batch-writer';
import { DeliveryDecisions } from '../src/delivery/delivery-decisions';
import { DeliveryJob, deliveryIdOf } from '../src/delivery/delivery-job';
import { DeliveryQueues } from '../src/delivery/delivery-queues';
import { DeliveryWorker } from '../src/delivery/delivery-worker';
import { AttemptToRecord, DeliveryProgress, DeliveryRepository, isDeliveredAttempt } from '../src/delivery/delivery.repository';
import { OrderedLanes } from '../src/ordered/ordered-lanes';
import { Registrations } from '../src/registrations/registrations';
import { ReplyPoster } from '../src/replies/reply-poster';

const RATE = Number(process.env.MEASURE_RATE ?? 400);
const SECONDS = Number(process.env.MEASURE_SECONDS ?? 5);
const CPU_MS = Number(process.env.MEASURE_CPU_MS ?? 2);
const LINGER_MS = Number(process.env.MEASURE_LINGER_MS ?? 5);
const CONCURRENCY = Number(process.env.MEASURE_WRITERS ?? 2);
const URGENT = process.env.MEASURE_URGENT === '1';
const LANE = process.env.MEASURE_LANE === '1';
/** Set: each write takes this long instead of going to PostgreSQL (a database of known latency, unlike a shared machine's). */
const WRITE_MS = process.env.MEASURE_WRITE_MS ? Number(process.env.MEASURE_WRITE_MS) : null;

const now = () => performance.timeOrigin + performance.now();

const RECEIVER = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
let n = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const ok = process.env.ALL_OK === '1' || n++ % 5 < 3;
    res.writeHead(ok ? 204 : 500, { 'x-answered-at': String(performance.timeOrigin + performance.now()) }).end();
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

describe('unrecorded 2xx window (measurement)', () => {
  let url: string;
  let db: DataSource;
  let receiver: ChildProcess;

  afterAll(async () => {
    receiver?.kill();
    await db?.destroy().catch(() => undefined);
    if (url) await dropTestDatabase(url);
  });

  it(`${LANE ? 'one lane, ' : ''}${RATE}/s for ${SECONDS} s, ${CPU_MS} ms CPU an answer, linger ${LINGER_MS} ms, ${CONCURRENCY} writers, successes urgent: ${URGENT}`, async () => {
    url = testDatabaseUrl('window');
    db = await openDispatcherDatabase(url, 10);
    const repository = new DeliveryRepository(db);
    receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ALL_OK: LANE ? '1' : '0' } });
    const port = await new Promise<number>((resolve) => receiver.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));

    const windows: number[] = [];
    let writes = 0;
    let records = 0;
    const recorder = new BatchWriter<AttemptToRecord>(async (items) => {
      writes++;
      records += items.length;
      if (WRITE_MS === null) await repository.recordAttempts(items);
      else await new Promise((r) => setTimeout(r, WRITE_MS));
      const committed = now();
      for (const i of items) {
        const answered = Number(i.record.responseHeaders?.['x-answered-at']);
        if (i.state.status === 'delivered' && answered) windows.push(committed - answered);
      }
    }, 200, LINGER_MS, CONCURRENCY, URGENT ? isDeliveredAttempt : undefined);

    const registration: WebhookRegistration = {
      id: 7, roomId: 3, event: 'room_notification', url: `http://127.0.0.1:${port}/hook`, pattern: null, name: 'measure',
      authentication: 'none', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
      secret: 'registration-secret-1', userId: 5,
    };
    const http = new GuardedHttpClient({ allowedNetworks: ['127.0.0.0/8'], timeoutMs: 5_000, maxResponseBytes: 65_536 });
    // The rest of a loaded dispatcher's work, in the same event loop as the answers.
    const busy = (ms: number) => {
      for (const until = performance.now() + ms; performance.now() < until;);
    };
    const loaded = {
      request: async (r: Parameters<GuardedHttpClient['request']>[0]) => {
        const res = await http.request(r);
        busy(CPU_MS);
        return res;
      },
    } as unknown as GuardedHttpClient;
    const worker = new DeliveryWorker(
      { get: () => registration, at: () => registration, upTo: async () => true, freshSince: async () => undefined } as unknown as Registrations,
      loaded, repository, recorder,
      new BatchWriter<string, Map<string, DeliveryProgress>>((ids) => repository.progressOf(ids)),
      // A broker's confirm takes about a millisecond.
      { publishRetry: () => new Promise((r) => setTimeout(r, 1)), publishInFlight: async () => undefined } as unknown as DeliveryQueues,
      new DeliveryDecisions([1_000, 2_000]), {} as ReplyPoster, createLogger('measure', 'silent'),
      { timeoutMs: 5_000, secrets: new SecretBox([{ id: 'k1', key: randomBytes(32) }]), laneRecorder: recorder },
    );

    const total = RATE * SECONDS;
    const jobOf = (k: number): DeliveryJob => ({
      deliveryId: deliveryIdOf(`event-${k}`, 7), webhookId: 7, event: 'room_notification', eventId: `event-${k}`, roomId: 3, attempt: 1,
      envelopeBody: `{"event":"room_notification","item":{"k":${k}}}`, createdAt: new Date().toISOString(), replyDepth: 0,
      actorUserId: null, registrationsVersion: null,
    });
    const started = performance.now();
    if (LANE) {
      const lanes = new OrderedLanes((j) => worker.attemptInLane(j));
      for (let k = 0; k < total; k++) lanes.add(jobOf(k));
      while (lanes.size > 0) await new Promise((r) => setTimeout(r, 5));
    } else {
      const attempts: Array<Promise<unknown>> = [];
      for (let k = 0; k < total; k++) {
        const wait = started + (k * 1000) / RATE - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        attempts.push(worker.handle(jobOf(k), { release: () => undefined }));
      }
      await Promise.all(attempts);
    }
    await recorder.flushed();
    const lasted = (performance.now() - started) / 1000;
    http.close();

    const sorted = [...windows].sort((a, b) => a - b);
    const sum = windows.reduce((a, b) => a + b, 0);
    const line = {
      lane: LANE, deliveriesPerSecond: Number((total / lasted).toFixed(0)), rate: RATE, cpuMs: CPU_MS, lingerMs: LINGER_MS, writeMs: WRITE_MS ?? 'postgres', writers: CONCURRENCY, urgent: URGENT, seconds: Number(lasted.toFixed(2)),
      successes: windows.length, writes, recordsPerWrite: Number((records / writes).toFixed(2)),
      windowMs: { mean: Number((sum / windows.length).toFixed(1)), p50: Number(pct(sorted, 50).toFixed(1)), p99: Number(pct(sorted, 99).toFixed(1)), max: Number(sorted[sorted.length - 1].toFixed(1)) },
      unrecordedAtAnInstant: Number((sum / 1000 / lasted).toFixed(2)),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    expect(windows.length).toBeGreaterThan(0);
  }, 120_000);
});

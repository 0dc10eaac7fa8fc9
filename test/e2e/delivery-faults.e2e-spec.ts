/**
 * Deliveries under receiver faults, a dispatcher crash and a broker outage, end to end: the
 * built system as `npm start` runs it plus a second dispatcher replica, every service
 * reaching RabbitMQ through an OutageProxy, ten webhooks on one room whose receivers fail
 * half the time, hang past the attempt timeout, reset the connection or answer 410. The
 * second replica is killed -9 a fifth of the way through the notifications, and a second
 * later the broker goes away for 10 s (while the kill's redeliveries, the retries and the
 * notifications are under way), so notifications are posted before, during and after it.
 *
 * What a user may count on, checked against what each receiver saw: a notification the
 * gateway accepted (2xx) makes its ten deliveries, one it refused with 503 makes none; every
 * delivery ends `delivered` or `failed` (none left pending, none lost), each one's requests
 * carry one `webhook-id` and the same body, the log's outcome agrees with the receiver's
 * answers, and a delivery is sent again after a 2xx only when the replica that got the 2xx
 * could not record it (died, or lost the broker before settling it: a bounded few).
 */
import { spawn } from 'node:child_process';
import { Client } from 'pg';
import { v2Call } from '../support/http';
import { testInfra } from '../support/common';
import { OutageProxy } from '../support/outage-proxy';
import { cli, Launched, startTestSystem, TestSystem } from '../support/processes';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { SERVICES } = require('../../scripts/services') as { SERVICES: Array<{ name: string; entry: string; flags: string[] }> };

const RECEIVERS = 10;
const NOTIFICATIONS = 200;
// 20 s of notifications: the outage (from the 50th to about the 150th) leaves some after it.
const PER_SECOND = 10;
const KILL_AT = 40;
const OUTAGE_AT = 50;
const OUTAGE_MS = 10_000;
const TIMEOUT_MS = 1_500;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What one receiver saw of one delivery (its webhook-id); see bench/lib/faulty-receiver.js. */
interface Seen {
  receiver: number;
  bodies: Set<string>;
  /** Each request's fate, in arrival order: `2xx` once its 2xx was written. */
  answers: Array<'2xx' | '500' | '410' | 'hang' | 'reset'>;
  /** Requests that arrived after a 2xx had been written. */
  afterOk: number;
}

/** The receivers the bench's delivery-faults scenario uses: 50% 500, 5% hang, 5% reset, 2% 410, else 204 (seeded). */
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { startFaultyReceiver } = require('../../bench/lib/faulty-receiver') as {
  startFaultyReceiver(o: { index: number; seen: Map<string, Seen>; hangMs: number; host?: string }): Promise<{ url: string; close(): Promise<void> }>;
};

describe('deliveries under receiver faults, a dispatcher killed -9 and a 10 s broker outage', () => {
  let stack: TestSystem;
  let db: Client;
  let second: Launched;
  let proxy: OutageProxy;
  const receivers: Array<{ close(): Promise<void> }> = [];
  const seen = new Map<string, Seen>();

  beforeAll(async () => {
    proxy = await OutageProxy.start((({ hostname, port }) => ({ host: hostname, port: Number(port || 5672) }))(new URL(testInfra().amqpUrl)));
    stack = await startTestSystem('e2e_faults', {
      // Every service, and the second dispatcher (it is started with stack.env), through the proxy.
      AMQP_URL: proxy.rewrite(testInfra().amqpUrl),
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      RATE_LIMIT_MAX: '100000',
    });
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    const dispatcher = SERVICES.find((s) => s.name === 'webhook-dispatcher')!;
    second = new Launched(spawn(process.execPath, [...dispatcher.flags, dispatcher.entry], { env: { ...process.env, ...stack.env }, stdio: ['ignore', 'pipe', 'pipe'] }));
    await second.waitForLog((l) => l.msg === 'consuming room events');
  }, 90_000);

  afterAll(async () => {
    second?.child.kill('SIGKILL');
    await Promise.all(receivers.map((r) => r.close()));
    await db?.end();
    await stack?.stop();
    await proxy?.close();
  }, 60_000);

  it('ends every accepted notification\'s deliveries delivered or failed as its receiver decided, with few duplicates and none lost', async () => {
    const v1Admin = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const form = (body: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams({ auth_token: v1Admin, ...body }) });
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'ops@example.com', name: 'Ops Lead' }))).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/rooms/create`, form({ name: 'Faults', owner_user_id: '1' }))).status).toBe(200);
    const personal = cli(['token', 'create', '--type', 'personal', '--user', 'ops@example.com'], stack.env).stdout.trim();
    const notify = cli(['token', 'create', '--type', 'notification'], stack.env).stdout.trim();
    const webhookOf = new Map<number, number>();
    for (let i = 0; i < RECEIVERS; i++) {
      const receiver = await startFaultyReceiver({ index: i, seen, hangMs: TIMEOUT_MS * 2, host: '127.0.0.2' });
      receivers.push(receiver);
      const { url } = receiver;
      const made = await v2Call(stack.baseUrl, personal, 'POST', '/room/Faults/webhook', { url, event: 'room_notification', name: `faulty ${i}` });
      expect(made.status).toBe(201);
      webhookOf.set(made.body.id, i);
    }

    const started = Date.now();
    const posts: Array<Promise<number>> = [];
    for (let k = 0; k < NOTIFICATIONS; k++) {
      const wait = started + (k * 1000) / PER_SECOND - Date.now();
      if (wait > 0) await pause(wait);
      if (k === KILL_AT) second.child.kill('SIGKILL');
      if (k === OUTAGE_AT) proxy.outage(OUTAGE_MS);
      posts.push(fetch(`${stack.baseUrl}/v1/rooms/message`, {
        method: 'POST', body: new URLSearchParams({ auth_token: notify, room_id: 'Faults', from: 'CI', message: `notification ${k}` }),
      }).then((r) => r.status));
    }
    const statuses = await Promise.all(posts);
    // 200 accepted, 503 refused untouched (the broker was away), 504 handed over and unanswered:
    // applied or not, so its deliveries may or may not exist.
    expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== 504)).toEqual([]);
    const accepted = new Set(statuses.flatMap((s, k) => (s === 200 ? [`notification ${k}`] : [])));
    const unknown = new Set(statuses.flatMap((s, k) => (s === 504 ? [`notification ${k}`] : [])));
    expect(statuses.slice(OUTAGE_AT).filter((s) => s !== 200).length).toBeGreaterThan(0);
    expect(statuses.slice(OUTAGE_AT + (OUTAGE_MS * PER_SECOND) / 1000 + 2 * PER_SECOND)).toContain(200);
    await proxy.restored();
    // The outage reached the services, not only the gateway's answers.
    for (const service of ['rooms', 'webhook-dispatcher']) {
      expect(stack.launched.logs((l) => l.service === service && String(l.msg).includes('connection lost')).length).toBeGreaterThan(0);
    }

    // Every delivery ends: the schedule's last retry is 6 s after the first attempt; the outage
    // postpones those whose event or job waited in the broker.
    type Row = { id: string; webhook_id: number; status: string; attempts: number; message: string };
    let rows: Row[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      ({ rows } = await db.query(`SELECT id, webhook_id, status, attempts, (envelope::json->'item'->'message'->>'message') AS message FROM webhook_deliveries`));
      const open = rows.filter((r) => r.status !== 'delivered' && r.status !== 'failed');
      const made = rows.filter((r) => accepted.has(r.message)).length;
      if (made === accepted.size * RECEIVERS && open.length === 0) break;
      if (Date.now() > deadline) throw new Error(`after 60 s: ${made} of ${accepted.size * RECEIVERS} deliveries, ${open.length} not ended (${[...new Set(open.map((r) => r.status))]})`);
      await pause(500);
    }

    // Each accepted notification made one delivery per webhook; a refused one none; an
    // unanswered one all or none.
    const perMessage = new Map<string, Row[]>();
    for (const r of rows) perMessage.set(r.message, [...(perMessage.get(r.message) ?? []), r]);
    const wrong = [...perMessage].filter(([m, rs]) => !(accepted.has(m) || unknown.has(m)) || new Set(rs.map((r) => r.webhook_id)).size !== RECEIVERS || rs.length !== RECEIVERS);
    expect(wrong.map(([m, rs]) => `${m}: ${rs.length}`)).toEqual([]);
    expect([...accepted].filter((m) => !perMessage.has(m))).toEqual([]);

    // None lost: every delivery of the log reached its own receiver, and receivers saw nothing else.
    expect(rows.filter((r) => !seen.has(r.id))).toEqual([]);
    expect(seen.size).toBe(rows.length);
    const mismatched = rows.filter((r) => seen.get(r.id)!.receiver !== webhookOf.get(r.webhook_id));
    expect(mismatched).toEqual([]);
    // One delivery, one body: every retry POSTs the same bytes under the same webhook-id.
    expect([...seen.values()].filter((s) => s.bodies.size !== 1)).toEqual([]);

    // The log agrees with the receivers: delivered ones got a 2xx, failed ones' last request did
    // not. (Not "a delivered one's last request got the 2xx": after the kill, the redelivered job
    // and the redone event can each make the unknown attempt at once, and one of them may fail.)
    const contradictions = rows.filter((r) => {
      const answers = seen.get(r.id)!.answers;
      return r.status === 'delivered' ? !answers.includes('2xx') : answers[answers.length - 1] === '2xx';
    });
    expect(contradictions).toEqual([]);
    // A recorded 410 ends a delivery: failed, no attempt after it. Checked where the receiver saw
    // exactly the attempts the log holds: after the kill, the same attempt may be made twice (the
    // dead replica's, unrecorded, and the survivor's, or the redelivered job's and the redone
    // event's at once) with different answers.
    const { rows: gone } = await db.query(
      `SELECT d.id, d.status, a.attempt, d.attempts FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE a.status = 410`);
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.filter((g) => seen.get(g.id)!.answers.length === g.attempts && (g.status !== 'failed' || g.attempt !== g.attempts))).toEqual([]);

    // Every answer the log records, the receiver gave, as often as it gave it: every request is
    // kept (an attempt made twice, its further requests in repeats), and none that was not made.
    const { rows: answered } = await db.query(
      `SELECT id, array_agg(status)::int[] AS statuses FROM (
         SELECT delivery_id AS id, status FROM webhook_attempts
         UNION ALL
         SELECT w.delivery_id, (r->>'status')::int FROM webhook_attempts w, jsonb_array_elements(w.repeats) r WHERE w.repeats IS NOT NULL
       ) requests WHERE status IS NOT NULL GROUP BY id`);
    const invented = answered.filter((a: { id: string; statuses: number[] }) => {
      const given = seen.get(a.id)?.answers ?? [];
      const count = (answer: string, list: readonly string[]) => list.filter((x) => x === answer).length;
      const recorded = a.statuses.map((status) => (status >= 200 && status < 300 ? '2xx' : String(status)));
      return recorded.some((answer) => count(answer, recorded) > count(answer, given));
    });
    expect(invented).toEqual([]);

    const again = [...seen.values()].filter((s) => s.afterOk > 0).length;
    const requests = [...seen.values()].reduce((n, s) => n + s.answers.length, 0);
    // Sent again after a 2xx: only those whose 2xx the killed replica had not recorded (checked
    // above). How many depends on how far that replica lagged when it died: about 1% when the
    // machine is quiet, 4-5% under the whole suite's load; printed for the figures.
    process.stdout.write(`delivery faults: ${accepted.size} of ${NOTIFICATIONS} notifications accepted (${statuses.filter((s) => s === 503).length} 503, ${unknown.size} 504), `
      + `${rows.length} deliveries (${rows.filter((r) => r.status === 'delivered').length} delivered, ${rows.filter((r) => r.status === 'failed').length} failed), `
      + `${requests} requests, ${again} sent again after a 2xx (${((100 * again) / rows.length).toFixed(2)}%), ${Math.round((Date.now() - started) / 1000)} s\n`);
    expect(again).toBeLessThanOrEqual(rows.length * 0.1);
  }, 150_000);
});

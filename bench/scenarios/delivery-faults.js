// Deliveries under receiver faults, a dispatcher crash and a broker outage (issue §6): the
// services restarted with a short retry schedule and every one of them reaching RabbitMQ
// through an OutageProxy, a second dispatcher replica, ten webhooks on one room whose
// receivers fail half the time, hang past the timeout, reset the connection or answer 410.
// 500 notifications at 50/s (5,000 deliveries); the second replica is killed -9 halfway and
// a second later the broker goes away for 10 s. A notification the gateway answers 503
// (nothing done) is posted again a second later, as a client would; a 504 (maybe applied) is
// not, and its deliveries are counted apart. Figures come from the dispatcher's log (its
// tables) and what each receiver saw; the services are restarted as before at the end.
const { performance } = require('node:perf_hooks');
const amqp = require('amqplib');
const { Client } = require('pg');
const { startFaultyReceiver } = require('../lib/faulty-receiver');
const { OutageProxy } = require('../lib/outage-proxy');
const { registerWebhook } = require('../lib/receiver');
const { log, percentile, sleep } = require('../lib/util');

const RECEIVERS = 10;
const NOTIFICATIONS = 500;
const PER_SECOND = 50;
const KILL_AT = NOTIFICATIONS / 2;
const OUTAGE_AT = KILL_AT + PER_SECOND;
const OUTAGE_MS = 10_000;
const TIMEOUT_MS = 1_500;
const GRACE_MS = 120_000;
/** After the log says every delivery ended: time for a late duplicate (a guard copy) to arrive. */
const SETTLE_MS = 5_000;
const SERVICE_ENV = { WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) };

/** Waits until `queue` has `n` consumers (the dispatchers have started), asking the broker directly. */
async function waitForConsumers(amqpUrl, queue, n, timeoutMs = 60_000) {
  const conn = await amqp.connect(amqpUrl);
  conn.on('error', () => undefined);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      const count = await ch.checkQueue(queue).then((q) => q.consumerCount, () => 0);
      await ch.close().catch(() => undefined);
      if (count >= n) return;
      if (Date.now() > deadline) throw new Error(`${queue} has ${count} of ${n} consumers after ${timeoutMs} ms`);
      await sleep(200);
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}

module.exports = {
  name: 'delivery-faults',
  description: `${NOTIFICATIONS} notifications to ${RECEIVERS} faulty receivers, a dispatcher killed -9 and a ${OUTAGE_MS / 1000} s broker outage`,
  targets: [
    { metric: 'faults.lost', max: 0, label: 'lost == 0' },
    { metric: 'faults.misrecorded', max: 0, label: 'log agrees with receivers' },
    { metric: 'faults.duplicatePct', max: 1, label: 'sent again after 2xx <= 1%' },
  ],

  async setup(ctx) {
    const target = new URL(ctx.system.amqpUrl);
    const proxy = await OutageProxy.start({ host: target.hostname, port: Number(target.port || 5672) });
    const env = { ...SERVICE_ENV, AMQP_URL: proxy.rewrite(ctx.system.amqpUrl) };
    const state = { proxy, receivers: [], seen: new Map(), second: null, webhookOf: new Map() };
    try {
      log('delivery-faults: restarting the services behind the broker proxy, with a second dispatcher');
      await ctx.system.restart(env);
      state.second = ctx.system.launchReplica('webhook-dispatcher', env);
      await waitForConsumers(ctx.system.amqpUrl, `${ctx.system.namespace}.webhook-dispatcher.events`, 2);
      state.room = await ctx.fixtures.room('delivery-faults');
      state.token = await ctx.fixtures.adminToken();
      const personal = await ctx.fixtures.personalToken();
      for (let i = 0; i < RECEIVERS; i++) {
        const receiver = await startFaultyReceiver({ index: i, seen: state.seen, hangMs: TIMEOUT_MS * 2 });
        state.receivers.push(receiver);
        const id = await registerWebhook(ctx.baseUrl, personal, state.room.room_id, { url: receiver.url, event: 'room_notification', name: `faulty ${i}` });
        state.webhookOf.set(id, i);
      }
      return state;
    } catch (err) {
      await restore(ctx, state);
      throw err;
    }
  },

  async run(ctx, state) {
    const db = new Client({ connectionString: ctx.system.databaseUrl });
    try {
      await db.connect();
      return await measure(ctx, state, db);
    } finally {
      await db.end().catch(() => undefined);
      await restore(ctx, state);
    }
  },
};

async function measure(ctx, { proxy, room, token, seen, second, webhookOf }, db) {
  const marker = `faults ${ctx.runId} `;
  const statusCodes = {};
  const latencies = [];
  let requests = 0;
  let refused = 0;
  let lastAccepted = 0;
  /** Posts notification k until it is accepted (2xx) or its fate is unknown (504); 503 means nothing was done. */
  const post = async (k) => {
    for (const deadline = Date.now() + 60_000; ;) {
      const sent = performance.now();
      const status = await fetch(`${ctx.baseUrl}/v1/rooms/message`, {
        method: 'POST', headers: ctx.FORM, body: ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `${marker}${k}` }),
        signal: AbortSignal.timeout(30_000),
      }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }, () => 0);
      latencies.push(performance.now() - sent);
      requests++;
      statusCodes[status] = (statusCodes[status] || 0) + 1;
      if (status !== 503 || Date.now() > deadline) {
        if (status >= 200 && status < 300) lastAccepted = performance.now();
        return status;
      }
      refused++;
      await sleep(1000);
    }
  };

  const started = performance.now();
  const at = { kill: Infinity, outage: Infinity };
  const posts = [];
  for (let k = 0; k < NOTIFICATIONS; k++) {
    const wait = started + (k * 1000) / PER_SECOND - performance.now();
    if (wait > 0) await sleep(wait);
    if (k === KILL_AT) {
      second.kill('SIGKILL');
      at.kill = performance.now();
    }
    if (k === OUTAGE_AT) {
      proxy.outage(OUTAGE_MS);
      at.outage = performance.now();
    }
    posts.push(post(k));
  }
  const statuses = await Promise.all(posts);
  const postedMs = performance.now() - started;
  await proxy.restored();
  const accepted = new Set(statuses.flatMap((s, k) => (s >= 200 && s < 300 ? [`${marker}${k}`] : [])));
  const unknown = new Set(statuses.flatMap((s, k) => (s === 504 ? [`${marker}${k}`] : [])));
  const expected = accepted.size * RECEIVERS;

  const query = async () => (await db.query(
    `SELECT id, webhook_id, status, attempts, (envelope::json->'item'->'message'->>'message') AS message
       FROM webhook_deliveries WHERE room_id = $1`, [room.room_id])).rows;
  let rows = [];
  let drainedAt = null;
  for (const deadline = Date.now() + GRACE_MS; Date.now() < deadline;) {
    rows = await query();
    const ended = rows.filter((r) => accepted.has(r.message) && (r.status === 'delivered' || r.status === 'failed')).length;
    if (ended === expected) {
      drainedAt = performance.now();
      break;
    }
    await sleep(250);
  }
  await sleep(SETTLE_MS);
  rows = await query();

  const mine = rows.filter((r) => accepted.has(r.message));
  const ended = mine.filter((r) => r.status === 'delivered' || r.status === 'failed');
  // Lost: an accepted notification's delivery that did not end, or that its receiver never saw.
  const reached = ended.filter((r) => seen.has(r.id) && seen.get(r.id).receiver === webhookOf.get(r.webhook_id));
  const lost = expected - reached.length;
  // Misrecorded: the log's outcome against the receiver's answers, one body per webhook-id, and
  // deliveries nobody asked for (a 503 that was applied after all, a delivery made twice).
  const contradicting = ended.filter((r) => {
    const s = seen.get(r.id);
    if (!s) return false;
    return r.status === 'delivered' ? !s.answers.includes('2xx') : s.answers[s.answers.length - 1] === '2xx';
  });
  const contradicts = contradicting.length;
  const twoBodies = [...seen.values()].filter((s) => s.bodies.size !== 1).length;
  const perMessage = new Map();
  for (const r of rows) perMessage.set(r.message, (perMessage.get(r.message) || 0) + 1);
  const unaskedOnes = [...perMessage].filter(([m, n]) => (!accepted.has(m) && !unknown.has(m)) || n > RECEIVERS);
  const unasked = unaskedOnes.length;
  const strayIds = [...seen.keys()].filter((id) => !rows.some((r) => r.id === id));
  const strays = strayIds.length;
  const again = [...seen.values()].filter((s) => s.afterOk > 0);
  const duplicates = again.length;
  // When the 2xx that was not taken into account came: around the kill, or around the outage.
  const duplicatesByPhase = {
    beforeKill: again.filter((s) => s.okAt < at.kill).length,
    killToOutage: again.filter((s) => s.okAt >= at.kill && s.okAt < at.outage).length,
    duringOutage: again.filter((s) => s.okAt >= at.outage && s.okAt < at.outage + OUTAGE_MS).length,
    afterOutage: again.filter((s) => s.okAt >= at.outage + OUTAGE_MS).length,
  };
  const sorted = latencies.sort((a, b) => a - b);
  const faults = {
    notifications: NOTIFICATIONS,
    accepted: accepted.size,
    refused503: refused,
    unknown504: unknown.size,
    expected,
    delivered: ended.filter((r) => r.status === 'delivered').length,
    failed: ended.filter((r) => r.status === 'failed').length,
    lost,
    misrecorded: contradicts + twoBodies + unasked + strays,
    duplicates,
    duplicatePct: expected ? (100 * duplicates) / expected : null,
    duplicatesByPhase,
    requests: [...seen.values()].reduce((n, s) => n + s.answers.length, 0),
    postedMs,
    drainMs: drainedAt === null ? null : drainedAt - lastAccepted,
    totalMs: drainedAt === null ? null : drainedAt - started,
  };
  log(`delivery-faults: ${JSON.stringify(faults)}`);
  // A few of each, to look up in the services' log by delivery id.
  const reachedIds = new Set(reached.map((r) => r.id));
  // Each request the receiver saw, as its answer @ ms after the kill (the outage began OUTAGE_AT - KILL_AT sends later).
  const sample = (list) => list.slice(0, 10).map((r) => ({
    id: r.id, status: r.status, attempts: r.attempts,
    seen: seen.has(r.id) ? seen.get(r.id).answers.map((a, i) => `${a}@${Math.round(seen.get(r.id).at[i] - at.kill)}`) : null,
  }));
  if (lost > 0) log(`delivery-faults: lost ${JSON.stringify(sample(mine.filter((r) => !reachedIds.has(r.id))))}`);
  if (contradicts + twoBodies + unasked + strays > 0) {
    log(`delivery-faults: misrecorded: ${JSON.stringify({ contradicting: sample(contradicting), twoBodies, unasked: unaskedOnes.slice(0, 10), strays: strayIds.slice(0, 10).map((id) => ({ id, ...seen.get(id), bodies: undefined })) })}`);
  }
  if (duplicates > 0) log(`delivery-faults: sent again after a 2xx ${JSON.stringify(sample(mine.filter((r) => seen.has(r.id) && seen.get(r.id).afterOk > 0)))}`);
  return {
    http: {
      reqPerSec: (requests * 1000) / postedMs, p50: percentile(sorted, 50), p99: percentile(sorted, 99), requests,
      non2xx: requests - (statusCodes[200] || 0) - (statusCodes[204] || 0) - (statusCodes[0] || 0), errors: statusCodes[0] || 0, timeouts: 0, statusCodes,
    },
    faults,
  };
}

/** Stops what the scenario started and brings the services back as the bench started them. */
async function restore(ctx, state) {
  if (state.second && state.second.exitCode === null && state.second.signalCode === null) state.second.kill('SIGKILL');
  await Promise.all(state.receivers.map((r) => r.close()));
  await ctx.system.restart().catch((err) => log(`delivery-faults: could not restart the services: ${err.message}`));
  await state.proxy.close();
}

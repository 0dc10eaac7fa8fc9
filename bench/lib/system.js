// The system under test: either started here (three services from scripts/services.js, a
// fresh database and broker namespace, all removed at the end) or, with BENCH_URL, one
// that is already running (nothing of it is stopped or removed).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const amqp = require('amqplib');
const { Client } = require('pg');
const { NODE_FLAGS, SERVICES, root } = require('../../scripts/services');
const { freePort, log, retry } = require('./util');
const { track, stopProcess, memoryOf } = require('./processes');

const PG_SERVER = 'postgres://postgres@127.0.0.1:5432';
const DEFAULT_AMQP = 'amqp://guest:guest@127.0.0.1:5672';

async function startLocal({ runId, logFile }) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const system = {
    mode: 'local',
    baseUrl,
    databaseUrl: `${PG_SERVER}/bench_${runId}`,
    amqpUrl: process.env.AMQP_URL || DEFAULT_AMQP,
    namespace: `bench_${runId}`,
    services: [],
    unexpectedExits: [],
    stopping: false,
  };
  // process.env passes REDIS_URL / AMQP_URL (and anything else) through.
  system.env = {
    ...process.env,
    DATABASE_URL: system.databaseUrl,
    BROKER_NAMESPACE: system.namespace,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    RATE_LIMIT_MAX: '100000000',
    // Counted as usual (the Redis round trips stay on the path), never reached.
    V2_RATE_LIMIT_MAX: '100000000',
    FLOOD_CONTROL_MAX: '100000000',
    // Webhooks go to receivers in the bench process; the fan-out scenario registers 1,000 on one room.
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOKS_PER_ROOM_MAX: '2000',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
  };
  const out = fs.openSync(logFile, 'a');
  for (const s of SERVICES) {
    const child = track(spawn(process.execPath, [...NODE_FLAGS, '--enable-source-maps', s.entry], { cwd: root, env: system.env, stdio: ['ignore', out, out] }));
    system.services.push({ name: s.name, pid: child.pid, child });
    child.once('exit', (code, signal) => {
      if (!system.stopping) system.unexpectedExits.push({ service: s.name, code, signal });
    });
  }
  fs.closeSync(out);
  system.stop = () => stopLocal(system);
  system.memory = () => Object.fromEntries(system.services.map((s) => [s.name, { pid: s.pid, ...memoryOf(s.pid) }]));
  return system;
}

function startExternal() {
  const need = (name) => {
    if (!process.env[name]) throw new Error(`BENCH_URL is set, so ${name} must be set too`);
    return process.env[name];
  };
  const system = {
    mode: 'external',
    baseUrl: process.env.BENCH_URL.replace(/\/+$/, ''),
    databaseUrl: need('BENCH_DATABASE_URL'),
    amqpUrl: process.env.BENCH_AMQP_URL || process.env.AMQP_URL || DEFAULT_AMQP,
    namespace: process.env.BENCH_NAMESPACE || 'chat',
    services: [],
    unexpectedExits: [],
    stop: async () => undefined,
    memory: () => null,
  };
  system.env = { ...process.env, DATABASE_URL: system.databaseUrl };
  return system;
}

async function stopLocal(system) {
  system.stopping = true;
  await Promise.all(system.services.map((s) => stopProcess(s.child)));
  await dropDatabase(system.databaseUrl).catch((err) => log(`could not drop the bench database: ${err.message}`));
  await deleteNamespace(system.amqpUrl, system.namespace).catch((err) => log(`could not clean the broker: ${err.message}`));
}

async function dropDatabase(databaseUrl) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Deletes the namespace's queues and exchanges that exist; each on its own channel, as a failure closes it. */
async function deleteNamespace(amqpUrl, ns) {
  const conn = await amqp.connect(amqpUrl);
  const attempt = async (fn) => {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    await fn(ch).catch(() => undefined);
    await ch.close().catch(() => undefined);
  };
  try {
    const d = `${ns}.webhook-dispatcher.deliveries`;
    // The delay queues of the default retry schedule (the bench does not set WEBHOOK_RETRY_SCHEDULE).
    const delays = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000].map((ms) => `${d}.delay.${ms}ms`);
    for (const q of [
      `${ns}.rooms.commands`, `${ns}.webhook-dispatcher.commands`, `${ns}.webhook-dispatcher.events`, `${ns}.webhook-dispatcher.events.dead-letter`,
      `${ns}.webhook-dispatcher.ordered-events`, `${ns}.webhook-dispatcher.ordered-events.dead-letter`,
      d, `${d}.dead-letter`, `${d}.in-flight`, ...delays,
    ]) {
      await attempt((ch) => ch.deleteQueue(q));
    }
    for (const x of [`${ns}.events`, `${ns}.events.dead-letter`, `${ns}.webhook-deliveries`]) await attempt((ch) => ch.deleteExchange(x));
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/**
 * Waits (60 s at most) until the rooms command queue and the dispatcher's event queue have no
 * ready messages, so that one scenario's backlog does not slow the next one down.
 */
async function settle(system) {
  const queues = [`${system.namespace}.rooms.commands`, `${system.namespace}.webhook-dispatcher.events`];
  const conn = await amqp.connect(system.amqpUrl);
  conn.on('error', () => undefined);
  const backlog = async () => {
    let total = 0;
    for (const q of queues) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      total += await ch.checkQueue(q).then((r) => r.messageCount, () => 0);
      await ch.close().catch(() => undefined);
    }
    return total;
  };
  try {
    const deadline = Date.now() + 60_000;
    let left = await backlog();
    if (left > 0) log(`waiting for ${left} queued messages to drain`);
    while (left > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      left = await backlog();
    }
    if (left > 0) log(`${left} messages still queued after 60 s; going on`);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Starts (or attaches to) the system and waits for GET /health (60 s at most). */
async function startSystem(options) {
  const system = process.env.BENCH_URL ? startExternal() : await startLocal(options);
  system.settle = () => settle(system);
  const failIfExited = () => {
    const e = system.unexpectedExits[0];
    if (e) throw new Error(`${e.service} exited (${e.signal || `code ${e.code}`}) during start-up; see ${options.logFile}`);
  };
  try {
    await retry(async () => {
      failIfExited();
      const res = await fetch(`${system.baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status !== 200) throw new Error(`GET /health answered ${res.status}`);
    }, 60_000, 200);
  } catch (err) {
    await system.stop();
    failIfExited();
    throw new Error(`${system.baseUrl}/health did not answer 200 within 60 s (${err.message})`);
  }
  return system;
}

module.exports = { startSystem };

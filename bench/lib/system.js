// The system under test: either started here (three services from scripts/services.js, a
// fresh database and broker namespace, all removed at the end) or, with BENCH_URL, one
// that is already running (nothing of it is stopped or removed).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { randomBytes } = require('node:crypto');
const amqp = require('amqplib');
const { SERVICES, root } = require('../../scripts/services');
const { freePort, log, retry } = require('./util');
const { track, stopProcess, memoryOf } = require('./processes');
const { startOtlpSink } = require('./otlp-sink');
const { systemState } = require('./system-state');

const PG_SERVER = 'postgres://postgres@127.0.0.1:5432';

// BENCH_CPU_PROF_DIR: each service writes a V8 CPU profile there when it stops (open it in
// Chrome's DevTools or summarise it with bench/lib/profile-summary.js).
const PROFILE_FLAGS = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
const DEFAULT_AMQP = 'amqp://guest:guest@127.0.0.1:5672';
const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

async function startLocal({ runId, logFile }) {
  const state = systemState();
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
    // Retry schedules scenarios set (WEBHOOK_RETRY_SCHEDULE): recorded with the state, for their delay queues.
    retrySchedules: new Set(),
    logFile,
  };
  system.infra = { amqpUrl: system.amqpUrl, redisUrl: process.env.REDIS_URL || DEFAULT_REDIS };
  // What killed benches and test runs left behind (their services included) goes first; this
  // run's database and namespace are recorded before they exist (see test/support/test-state.ts).
  const removed = await state.sweepAbandonedTestState((s) => state.removeTestState(system.infra, s))
    .catch((err) => log(`could not remove what killed runs left behind: ${err.message}`));
  if (removed && removed.length > 0) log(`removed what ${removed.length} killed run(s) left behind: ${removed.map((s) => s.namespace || s.databaseUrl).join(', ')}`);
  system.state = state.trackTestState({ namespace: system.namespace, databaseUrl: system.databaseUrl, retryScheduleMs: state.DEFAULT_RETRY_SCHEDULE_MS });
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
    PUBLIC_RATE_LIMIT_MAX: '100000000',
    FLOOD_CONTROL_MAX: '100000000',
    // Webhooks go to receivers in the bench process; the fan-out scenario registers 1,000 on one room.
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOKS_PER_ROOM_MAX: '2000',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    // Any free port: scenarios start replicas beside the three, and a bench may run beside `npm start`.
    METRICS_PORT: process.env.METRICS_PORT || '0',
    // The run's own key for the secrets at rest (its database is its own too); every process of the run gets it.
    SECRETS_KEYS: process.env.SECRETS_KEYS || `bench:${randomBytes(32).toString('base64')}`,
  };
  if (process.env.BENCH_TRACING === '1') {
    // Every span recorded and exported, to a receiver here (or to the endpoint given).
    system.otlpSink = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? null : await startOtlpSink();
    if (system.otlpSink) system.env.OTEL_EXPORTER_OTLP_ENDPOINT = system.otlpSink.url;
    system.env.OTEL_TRACES_SAMPLER_ARG = process.env.OTEL_TRACES_SAMPLER_ARG || '1';
  } else {
    delete system.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  }
  system.tracing = () => ({
    exported: !!system.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    sampled: system.env.OTEL_EXPORTER_OTLP_ENDPOINT ? Number(system.env.OTEL_TRACES_SAMPLER_ARG) : 0,
    ...(system.otlpSink ? { spans: system.otlpSink.spans, exports: system.otlpSink.requests, bytes: system.otlpSink.bytes } : {}),
  });
  system.services = launchServices(system, system.env);
  system.stop = () => stopLocal(system);
  system.memory = () => Object.fromEntries(system.services.map((s) => [s.name, { pid: s.pid, ...memoryOf(s.pid) }]));
  system.restart = (overrides) => restartLocal(system, overrides);
  system.launchReplica = (name, overrides) => launchReplica(system, name, overrides);
  return system;
}

/** Starts the three services with `env`; an exit nobody asked for is recorded. */
function launchServices(system, env) {
  if (env.WEBHOOK_RETRY_SCHEDULE && !system.retrySchedules.has(env.WEBHOOK_RETRY_SCHEDULE)) {
    // Recorded before the dispatcher declares its delay queues: a bench killed now leaves them to the next run too.
    system.retrySchedules.add(env.WEBHOOK_RETRY_SCHEDULE);
    const state = systemState();
    system.state = state.trackTestState({ ...system.state, moreRetrySchedulesMs: [...system.retrySchedules].map(state.parseRetrySchedule) });
  }
  const out = fs.openSync(system.logFile, 'a');
  const services = SERVICES.map((s) => {
    const child = track(spawn(process.execPath, [...s.flags, ...PROFILE_FLAGS, '--enable-source-maps', s.entry], { cwd: root, env, stdio: ['ignore', out, out] }));
    const service = { name: s.name, pid: child.pid, child, stopping: false };
    child.once('exit', (code, signal) => {
      if (!system.stopping && !service.stopping) system.unexpectedExits.push({ service: s.name, code, signal });
    });
    return service;
  });
  fs.closeSync(out);
  return services;
}

/**
 * Stops the services and starts them again with `overrides` on top of the bench's own
 * environment (none: as the bench started them), for a scenario that needs other settings
 * (a short retry schedule, the broker behind a proxy). Resolves once GET /health answers 200.
 */
async function restartLocal(system, overrides = {}) {
  for (const s of system.services) s.stopping = true;
  await Promise.all(system.services.map((s) => stopProcess(s.child)));
  system.services = launchServices(system, { ...system.env, ...overrides });
  await waitForHealth(system, 60_000);
}

/**
 * One more replica of a service (the bench's environment with `overrides`), outside
 * `system.services`: the scenario stops or kills it, and its exit is not reported.
 */
function launchReplica(system, name, overrides = {}) {
  const s = SERVICES.find((x) => x.name === name);
  if (!s) throw new Error(`no service ${name}`);
  const out = fs.openSync(system.logFile, 'a');
  const child = track(spawn(process.execPath, [...s.flags, ...PROFILE_FLAGS, '--enable-source-maps', s.entry], { cwd: root, env: { ...system.env, ...overrides }, stdio: ['ignore', out, out] }));
  fs.closeSync(out);
  return child;
}

async function waitForHealth(system, timeoutMs) {
  await retry(async () => {
    const res = await fetch(`${system.baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
    if (res.status !== 200) throw new Error(`GET /health answered ${res.status}`);
  }, timeoutMs, 200);
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
    restart: async () => {
      throw new Error('this scenario restarts the services with its own settings: it needs the bench to start them (no BENCH_URL)');
    },
    launchReplica: () => {
      throw new Error('this scenario starts a replica of its own: it needs the bench to start the services (no BENCH_URL)');
    },
  };
  system.env = { ...process.env, DATABASE_URL: system.databaseUrl };
  return system;
}

async function stopLocal(system) {
  system.stopping = true;
  await Promise.all(system.services.map((s) => stopProcess(s.child)));
  // The services flushed their last spans as they stopped.
  await system.otlpSink?.close();
  const state = systemState();
  if (process.env.BENCH_KEEP_DATABASE === '1') {
    // To read the plans of the queries behind a figure (EXPLAIN) on the data it was measured on.
    await state.removeTestState(system.infra, system.state, { keepDatabase: true });
    log(`kept the database ${system.databaseUrl} (BENCH_KEEP_DATABASE=1): drop it when done`);
  } else {
    await state.removeTestState(system.infra, system.state);
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

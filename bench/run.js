#!/usr/bin/env node
// `npm run bench`: builds, starts the system (or uses BENCH_URL), measures a bare Fastify +
// PostgreSQL baseline and every scenario in bench/scenarios/, prints a table with the
// targets and writes the same data to bench/results/<timestamp>.json. `npm run bench --
// --scale` runs the scale mode instead (bench/scale/). See bench/README.md.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT } = require('./lib/api');
const { measureBaseline } = require('./lib/baseline');
const cpu = require('./lib/cpu');
const { listenEvents } = require('./lib/events');
const { fixtures } = require('./lib/fixtures');
const { measure, form, FORM } = require('./lib/load');
const { paced } = require('./lib/paced');
const { evaluateTargets, render, writeJson } = require('./lib/report');
const { startSystem } = require('./lib/system');
const { log, randomId, sleep, stopOnExit } = require('./lib/util');

const RESULTS = path.join(__dirname, 'results');
const SCENARIOS = path.join(__dirname, 'scenarios');

const int = (name, fallback) => {
  const v = process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number (got "${process.env[name]}")`);
  return v;
};

function loadScenarios() {
  // In file-name order, except those that must see the database as they made it (`first`).
  const named = fs.readdirSync(SCENARIOS).filter((f) => f.endsWith('.js')).sort()
    .map((f) => require(path.join(SCENARIOS, f)));
  const all = [...named.filter((s) => s.first), ...named.filter((s) => !s.first)];
  const wanted = (process.env.BENCH_SCENARIOS || '').split(',').map((s) => s.trim()).filter(Boolean);
  if (wanted.length === 0) return all;
  const unknown = wanted.filter((w) => !all.some((s) => s.name === w));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${all.map((s) => s.name).join(', ')}`);
  return wanted.map((w) => all.find((s) => s.name === w));
}

async function runScenario(scenario, ctx, baseline) {
  const result = { name: scenario.name, description: scenario.description, targets: scenario.targets || [] };
  try {
    log(`${scenario.name}: setting up`);
    const state = await scenario.setup(ctx);
    log(`${scenario.name}: measuring`);
    if (scenario.run) {
      const before = ctx.cpuSnapshot();
      Object.assign(result, await scenario.run(ctx, state));
      result.cpu = cpuOfRun(result, before, ctx.cpuSnapshot());
    } else {
      result.http = await ctx.measure((phase) => scenario.autocannonOptions(ctx, state, phase));
      result.ratio = baseline ? result.http.reqPerSec / baseline.reqPerSec : null;
      result.cpu = cpuOfRun(result);
    }
  } catch (err) {
    result.error = err.message;
    log(`${scenario.name} failed: ${err.stack}`);
  }
  return result;
}

/**
 * CPU per unit of a scenario's run: from the start of its measured autocannon run (warm-up
 * and setup left out) to the end of its run (a webhook scenario's deliveries included), per
 * delivery where it counts deliveries, else per request. Scenarios that restart services or
 * pace their own load count from the start of run(): their table row says so.
 */
function cpuOfRun(result, before, after) {
  const window = result.http && result.http.cpuWindow;
  if (window) delete result.http.cpuWindow;
  const start = window ? window.start : before;
  const end = after || (window && window.end);
  if (!start || !end) return null;
  const units = result.webhooks ? result.webhooks.delivered : result.faults ? result.faults.expected : result.http ? result.http.requests : 0;
  return { ...cpu.usage(start, end, units), per: result.webhooks || result.faults ? 'delivery' : 'request', fromRunStart: !window };
}

/**
 * A scenario's figure relative to another scenario's in the same run (`relativeTo`: the
 * machine's mood cancels out): webhook-deliveries' deliveries/s over message-one-room's req/s.
 */
function relate(results, scenarios) {
  const get = (obj, dotted) => dotted.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
  for (const scenario of scenarios.filter((s) => s.relativeTo)) {
    const { scenario: other, metric, base, as } = scenario.relativeTo;
    const mine = results.find((r) => r.name === scenario.name);
    const theirs = results.find((r) => r.name === other);
    const value = mine && get(mine, metric);
    const of = theirs && get(theirs, base);
    if (mine && typeof value === 'number' && typeof of === 'number' && of > 0) mine[as] = value / of;
  }
}

async function main() {
  const settings = { duration: int('BENCH_DURATION', 10), connections: int('BENCH_CONNECTIONS', 50), warmup: int('BENCH_WARMUP', 2) };
  const scenarios = loadScenarios();
  const runId = randomId();
  const startedAt = new Date().toISOString();
  const stamp = startedAt.replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS, { recursive: true });
  const logFile = path.join(RESULTS, `${stamp}-services.log`);

  if (!process.env.BENCH_SKIP_BUILD) {
    log('building (npm run build)');
    const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    if (built.status !== 0) throw new Error('npm run build failed');
  }

  log(process.env.BENCH_URL ? `using ${process.env.BENCH_URL}` : `starting the services (logs: ${path.relative(ROOT, logFile)})`);
  const system = await startSystem({ runId, logFile });
  const stop = once(() => system.stop());
  stopOnExit(stop);

  const machine = { cpus: os.cpus().length, node: process.version, loadAverageAtStart: os.loadavg()[0] };
  const report = { startedAt, mode: system.mode, baseUrl: system.baseUrl, settings, machine, runId, logFile: path.relative(ROOT, logFile) };
  try {
    const cpuSnapshot = (extra = []) => cpu.snapshot([...system.services.map((s) => ({ name: s.name, pid: s.pid })), ...extra]);
    const ctx = {
      runId,
      cpuSnapshot,
      settings,
      baseUrl: system.baseUrl,
      system,
      fixtures: fixtures(system, runId),
      form,
      FORM,
      measure: (makeOptions) => measure(system.baseUrl, settings, makeOptions, cpuSnapshot),
      paced: (options) => paced({ url: system.baseUrl, connections: settings.connections, ...options }),
      listenEvents: (routingKey, onEvent) => listenEvents(system.amqpUrl, system.namespace, routingKey, onEvent),
    };
    log('waiting until the API answers');
    await ctx.fixtures.adminToken();
    log('baseline: measuring');
    report.baseline = await measureBaseline({ system, settings, logFile, runId, probe: cpuSnapshot }).catch((err) => {
      report.baselineError = err.message;
      return null;
    });
    if (report.baseline) report.baseline.cpu = cpuOfRun({ http: report.baseline });
    // Scenarios measured without autocannon (webhook deliveries) compare with it themselves.
    ctx.baseline = report.baseline;
    report.scenarios = [];
    for (const scenario of scenarios) {
      await system.settle();
      await sleep(1000);
      report.scenarios.push(await runScenario(scenario, ctx, report.baseline));
    }
    relate(report.scenarios, scenarios);
    report.memory = system.memory();
    report.unexpectedExits = system.unexpectedExits;
  } finally {
    log('stopping and cleaning up');
    await stop();
  }
  report.tracing = system.tracing ? system.tracing() : { exported: false, sampled: 0 };
  report.finishedAt = new Date().toISOString();
  machine.loadAverageAtEnd = os.loadavg()[0];
  report.targets = evaluateTargets(report);
  const jsonFile = path.join(RESULTS, `${stamp}.json`);
  writeJson(jsonFile, report);
  process.stdout.write(render(report));
  process.stdout.write(`\nresults: ${path.relative(ROOT, jsonFile)}  service logs: ${report.logFile}\n`);
  return report.baselineError || report.scenarios.some((s) => s.error) ? 1 : 0;
}

function once(fn) {
  let promise;
  return () => (promise = promise || fn());
}

// `npm run bench | head` must not kill the bench (and leave the services running).
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

// `--scale`: the scale mode (bench/scale/), costs as the data grows; nothing else is shared with this one's run.
const args = process.argv.slice(2);
const unknownArgs = args.filter((a) => a !== '--scale');
const mode = unknownArgs.length
  ? () => Promise.reject(new Error(`unknown argument ${unknownArgs.join(' ')} (known: --scale)`))
  : args.includes('--scale') ? require('./scale').main : main;

mode().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[bench] could not run: ${err.message}\n`);
    process.exit(1);
  },
);

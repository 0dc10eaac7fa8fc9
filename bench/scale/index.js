// `npm run bench -- --scale`: costs as data grows. For each dimension (messages in a room,
// rooms, webhook registrations, the delivery log) it seeds PostgreSQL directly to 1x, 10x
// and 100x, measures each of its endpoints with sequential requests after each step, and
// prints each row's curve with a verdict (flat: p99 at 100x within 2x of 1x). See bench/README.md.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { ROOT } = require('../lib/api');
const { fixtures } = require('../lib/fixtures');
const { writeJson } = require('../lib/report');
const { startSystem } = require('../lib/system');
const { log, randomId, stopOnExit } = require('../lib/util');
const { renderScale, verdict } = require('./curve');
const { timeGets } = require('./measure');
const { settleTables } = require('./seed');

const RESULTS = path.join(__dirname, '..', 'results');
const DIMENSIONS = ['messages', 'rooms', 'registrations', 'delivery-log'].map((name) => require(`./dimensions/${name}`));

const int = (name, fallback, min = 0) => {
  const raw = process.env[name];
  const v = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return v;
};

function chosenDimensions() {
  const wanted = (process.env.BENCH_SCALE_DIMENSIONS || '').split(',').map((s) => s.trim()).filter(Boolean);
  if (wanted.length === 0) return DIMENSIONS;
  const unknown = wanted.filter((w) => !DIMENSIONS.some((d) => d.name === w));
  if (unknown.length) throw new Error(`unknown dimension ${unknown.join(', ')}; known: ${DIMENSIONS.map((d) => d.name).join(', ')}`);
  return DIMENSIONS.filter((d) => wanted.includes(d.name));
}

/** The metrics URL a service logged at start ("metrics listening", its pid), read from the services' log. */
function metricsUrlFrom(logFile, pid) {
  let found = null;
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"metrics listening"')) continue;
    try {
      const entry = JSON.parse(line);
      if (entry.pid === pid && entry.url) found = entry.url;
    } catch {
      // not one of the services' JSON lines
    }
  }
  return found;
}

/** Seeds a dimension to each of its sizes in turn and measures its rows after each step. */
async function runDimension(dim, ctx) {
  const sizes = ctx.sizes(dim);
  const result = { name: dim.name, title: dim.title, unit: dim.unit, sizes, seeding: [], rows: [] };
  try {
    log(`${dim.name}: setting up`);
    const state = await dim.setup(ctx);
    for (const [i, size] of sizes.entries()) {
      log(`${dim.name}: seeding to ${size.toLocaleString('en')} ${dim.unit}`);
      const started = Date.now();
      const added = await dim.grow(ctx, state, size);
      await settleTables(ctx.db, dim.tables);
      const ms = Date.now() - started;
      result.seeding.push({ size, added, ms });
      log(`${dim.name}: ${added.toLocaleString('en')} rows seeded, vacuumed and analyzed in ${(ms / 1000).toFixed(1)} s`);
      for (const row of await dim.rows(ctx, state, size)) {
        let r = result.rows.find((x) => x.name === row.name);
        if (!r) result.rows.push((r = { name: row.name, unit: row.unit || 'ms', note: row.note || null, figures: [] }));
        r.figures[i] = row.measure
          ? await row.measure()
          : await timeGets(ctx.baseUrl, {
            path: row.path,
            headers: row.v2 ? { authorization: `Bearer ${ctx.personalToken}` } : {},
            warmup: ctx.settings.warmup,
            requests: ctx.settings.requests,
            budgetMs: ctx.settings.budgetMs,
          });
        const f = r.figures[i];
        log(`${dim.name} @ ${size.toLocaleString('en')}: ${row.name}: ${f ? `p50 ${fmt(f.p50)} p99 ${fmt(f.p99)} ${r.unit} (n=${f.n}${f.failed ? `, ${f.failed} failed` : ''})` : 'no figure'}`);
      }
    }
    for (const r of result.rows) Object.assign(r, verdict(r.figures, sizes.length));
  } catch (err) {
    result.error = err.message;
    log(`${dim.name} failed: ${err.stack}`);
  }
  return result;
}

const fmt = (v) => (typeof v === 'number' ? v.toFixed(1) : '-');

async function main() {
  if (process.env.BENCH_URL) throw new Error('the scale mode seeds millions of rows into the database: it needs the bench to start the services (no BENCH_URL)');
  const divisor = int('BENCH_SCALE_DIVISOR', 1, 1);
  const settings = {
    requests: int('BENCH_SCALE_REQUESTS', 200, 1),
    warmup: int('BENCH_SCALE_WARMUP', 20),
    budgetS: int('BENCH_SCALE_BUDGET_S', 30, 1),
    divisor,
  };
  settings.budgetMs = settings.budgetS * 1000;
  const dimensions = chosenDimensions();
  const runId = randomId();
  const startedAt = new Date().toISOString();
  const stamp = startedAt.replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS, { recursive: true });
  const logFile = path.join(RESULTS, `${stamp}-scale-services.log`);

  if (!process.env.BENCH_SKIP_BUILD) {
    log('building (npm run build)');
    const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  log(`starting the services (logs: ${path.relative(ROOT, logFile)})`);
  const system = await startSystem({ runId, logFile });
  const cleanups = [];
  const stop = once(async () => {
    for (const c of cleanups.reverse()) await Promise.resolve().then(c).catch(() => undefined);
    await system.stop();
  });
  stopOnExit(stop);

  const machine = { cpus: os.cpus().length, node: process.version, loadAverageAtStart: os.loadavg()[0] };
  const report = { startedAt, mode: 'scale', baseUrl: system.baseUrl, settings, machine, runId, logFile: path.relative(ROOT, logFile), dimensions: [] };
  try {
    const f = fixtures(system, runId);
    log('waiting until the API answers');
    // The rooms service creates and migrates the database: it is there once a token can be made.
    await f.adminToken();
    const db = new Client({ connectionString: system.databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const ctx = {
      runId,
      system,
      baseUrl: system.baseUrl,
      db,
      fixtures: f,
      settings,
      cleanups,
      adminToken: await f.adminToken(),
      personalToken: await f.personalToken(),
      sizes: (dim) => dim.sizes.map((s) => Math.max(1, Math.round(s / divisor))),
      metricsUrl: (name) => {
        const service = system.services.find((s) => s.name === name);
        return service ? metricsUrlFrom(logFile, service.pid) : null;
      },
    };
    for (const dim of dimensions) report.dimensions.push(await runDimension(dim, ctx));
    report.unexpectedExits = system.unexpectedExits;
  } finally {
    log('stopping and cleaning up');
    await stop();
  }
  report.finishedAt = new Date().toISOString();
  machine.loadAverageAtEnd = os.loadavg()[0];
  const jsonFile = path.join(RESULTS, `${stamp}-scale.json`);
  writeJson(jsonFile, report);
  process.stdout.write(renderScale(report));
  process.stdout.write(`\nresults: ${path.relative(ROOT, jsonFile)}  service logs: ${report.logFile}\n`);
  const minutes = (Date.parse(report.finishedAt) - Date.parse(startedAt)) / 60_000;
  log(`scale run took ${minutes.toFixed(1)} minutes`);
  return report.dimensions.some((d) => d.error) ? 1 : 0;
}

function once(fn) {
  let promise;
  return () => (promise = promise || fn());
}

module.exports = { main, metricsUrlFrom };

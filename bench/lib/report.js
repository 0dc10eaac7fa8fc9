// Targets, the stdout table and the JSON file.
const fs = require('node:fs');

const RSS_LIMIT_MB = 200;

const get = (obj, dotted) => dotted.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

/** Every target of every scenario that ran, plus the memory limit per service. */
function evaluateTargets(report) {
  const targets = [];
  for (const s of report.scenarios) {
    for (const t of s.targets) {
      const value = s.error ? undefined : get(s, t.metric);
      const known = typeof value === 'number' && Number.isFinite(value);
      const pass = known && (t.min === undefined || value >= t.min) && (t.max === undefined || value <= t.max);
      targets.push({ scenario: s.name, target: t.label, metric: t.metric, value: known ? value : null, pass });
    }
  }
  for (const [service, m] of Object.entries(report.memory || {})) {
    const pass = m.rssMB !== null && m.rssMB <= RSS_LIMIT_MB;
    targets.push({ scenario: service, target: `RSS <= ${RSS_LIMIT_MB} MB`, metric: 'rssMB', value: m.rssMB, pass });
  }
  return targets;
}

function num(v, digits = 1) {
  if (v === null || v === undefined || Number.isNaN(v)) return '-';
  return v.toFixed(digits);
}

function table(headers, rows) {
  const all = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

function render(report) {
  const out = [];
  const s = report.settings;
  const m = report.machine;
  out.push(`Benchmark ${report.startedAt}  (${report.mode}, ${s.duration} s per run after ${s.warmup} s warm-up, ${s.connections} connections unless noted)`);
  out.push(`Machine: ${m.cpus} CPUs, Node ${m.node}, 1-min load average ${num(m.loadAverageAtStart)} at start, ${num(m.loadAverageAtEnd)} at end (other load skews every figure)`);
  const t = report.tracing;
  if (t) {
    out.push(t.exported
      ? `Tracing: on (every span recorded and exported over OTLP${t.spans !== undefined ? `: ${t.spans} spans in ${t.exports} exports` : ''}, sampled ${t.sampled})`
      : 'Tracing: off (trace context propagated, no span recorded or exported; BENCH_TRACING=1 turns it on)');
  }
  out.push('');
  // A scenario with no HTTP load of its own (webhook-fanout, delivery-recover) has no counts: '-'.
  const count = (n) => (n === undefined ? '-' : n);
  const httpRow = (name, h, ratio, error) => (error
    ? [name, `ERROR: ${error}`, '', '', '', '', '', '']
    : [name, num(h.reqPerSec, 0), num(h.p50), num(h.p99), ratio === undefined ? '-' : `${num(ratio * 100, 0)}%`, count(h.requests), count(h.non2xx), count(h.errors)]);
  out.push(table(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'requests', 'non-2xx', 'errors'],
    [httpRow('baseline (fastify + pg)', report.baseline || {}, undefined, report.baselineError),
      ...report.scenarios.map((r) => httpRow(r.name, r.http || {}, r.ratio, r.error))],
  ));
  const withLatency = report.scenarios.filter((r) => r.latency);
  if (withLatency.length) {
    out.push('', table(['event latency', 'p50 ms', 'p99 ms', 'max ms', 'matched', 'missing', 'before response', 'sent at'],
      withLatency.map((r) => [r.name, num(r.latency.p50), num(r.latency.p99), num(r.latency.max), r.latency.matched, r.latency.missing,
        r.latency.beforeResponse, r.http && r.http.targetRate ? `${num(r.http.reqPerSec, 0)} of ${r.http.targetRate}/s` : '-'])));
  }
  const withLive = report.scenarios.filter((r) => r.live);
  if (withLive.length) {
    out.push('', table(['live connections', 'open', 'rooms', 'gateway RSS before MB', 'after opening MB', 'under load MB', 'KB per connection'],
      withLive.map((r) => [r.name, r.live.connections, r.live.rooms, num(r.live.rssBeforeMB), num(r.live.rssAfterMB), num(r.live.rssLoadedMB),
        num(r.live.perConnectionKB)])));
  }
  const withWebhooks = report.scenarios.filter((r) => r.webhooks);
  if (withWebhooks.length) {
    out.push('', table(['webhooks', 'delivered/s', 'vs baseline', 'delivered', 'expected', 'within ms', 'p99 ms'],
      withWebhooks.map((r) => [r.name, num(r.webhooks.perSec, 0), r.ratio === undefined || r.ratio === null ? '-' : `${num(r.ratio * 100, 0)}%`,
        r.webhooks.delivered, r.webhooks.expected, num(r.webhooks.withinMs), num(r.webhooks.p99)])));
  }
  const withBridges = report.scenarios.filter((r) => r.bridge);
  if (withBridges.length) {
    out.push('', table(['bridges', 'sent', 'arrived', 'missing', 'out of order', 'posts', '429s met', 'last after last send ms'],
      withBridges.map((r) => [r.name, r.bridge.sent, r.bridge.arrived, r.bridge.missing, r.bridge.outOfOrder, r.bridge.posts, r.bridge.throttled,
        r.bridge.lastAfterLastSendMs === null ? '-' : r.bridge.lastAfterLastSendMs])));
  }
  const withFaults = report.scenarios.filter((r) => r.faults);
  if (withFaults.length) {
    out.push('', table(['delivery faults', 'notifications', 'expected', 'delivered', 'failed', 'lost', 'misrecorded', 'again after 2xx', 'drain s'],
      withFaults.map((r) => {
        const f = r.faults;
        return [r.name, `${f.accepted} of ${f.notifications} (${f.refused503} 503 retried, ${f.unknown504} 504)`, f.expected, f.delivered, f.failed,
          f.lost, f.misrecorded, `${f.duplicates} (${num(f.duplicatePct, 2)}%)`, f.drainMs === null ? 'not drained' : num(f.drainMs / 1000)];
      })));
  }
  const withStats = report.scenarios.filter((r) => r.stats && r.stats.rows);
  if (withStats.length) {
    const ms = (v) => (typeof v === 'number' ? num(v) : '-');
    const [small, large] = withStats[0].stats.sizes || [];
    out.push('', table(['scale row (p50 / p99 ms, one request at a time)', `log of ${small ?? '?'}`, `log of ${large ?? '?'}`, 'p99 x', 'verdict'],
      withStats.flatMap((r) => r.stats.rows.map((row) => [`${r.name}: ${row.name}`, `${ms(row.small.p50)} / ${ms(row.small.p99)}`,
        `${ms(row.large.p50)} / ${ms(row.large.p99)}`, row.ratio === null ? '-' : `${num(row.ratio, 2)}x`, row.flat === null ? '-' : row.flat ? 'flat' : 'NOT flat']))));
  }
  const withCpu = [{ name: 'baseline', cpu: report.baseline && report.baseline.cpu }, ...report.scenarios].filter((r) => r.cpu);
  if (withCpu.length) {
    const COLUMNS = ['baseline', 'gateway', 'rooms', 'webhook-dispatcher', 'postgres', 'rabbitmq', 'redis', 'bench', 'other'];
    const seen = COLUMNS.filter((c) => withCpu.some((r) => r.cpu.perUnitMs[c] != null));
    out.push('', table(['CPU ms per unit', 'per', ...seen.map((c) => (c === 'webhook-dispatcher' ? 'dispatcher' : c)), 'machine', 'busy'],
      withCpu.map((r) => [r.name, `${r.cpu.per}${r.cpu.fromRunStart ? '*' : ''}`, ...seen.map((c) => num(r.cpu.perUnitMs[c], 3)),
        num(r.cpu.machine && r.cpu.machine.busyPerUnit, 3), r.cpu.machine ? `${num(r.cpu.machine.busyPct, 0)}%` : '-'])));
    out.push('(utime + stime from /proc over the measured run, divided by its requests or deliveries; bench = autocannon and the'
      + ' receivers; other = busy time no group accounts for; machine = all busy time per unit; busy = share of all CPUs;'
      + ' * counted from the start of the scenario\'s run, its warm-up included)');
  }
  if (report.memory) {
    out.push('', table(['service (after the run)', 'pid', 'RSS MB', 'peak MB'],
      Object.entries(report.memory).map(([name, m]) => [name, m.pid, num(m.rssMB), num(m.peakMB)])));
  } else {
    out.push('', 'RSS: not reported (BENCH_URL: the services are not children of the bench)');
  }
  out.push('', table(['target', '', 'value', 'result'],
    report.targets.map((t) => [t.scenario, t.target, t.metric === 'ratio' && t.value !== null ? `${num(t.value * 100, 0)}%` : num(t.value), t.pass ? 'PASS' : 'FAIL'])));
  const problems = [];
  for (const r of [{ name: 'baseline', http: report.baseline }, ...report.scenarios]) {
    if (r.http && r.http.non2xx + r.http.errors > 0) {
      problems.push(`!! ${r.name}: ${r.http.non2xx} non-2xx responses, ${r.http.errors} errors (${r.http.timeouts} timeouts${r.http.abandoned ? `, ${r.http.abandoned} unanswered when given up on` : ''}); status codes ${JSON.stringify(r.http.statusCodes)}`);
    }
  }
  for (const r of report.scenarios) {
    if (r.http && r.http.requests === 0) problems.push(`!! ${r.name}: no response arrived within the run; its figures mean nothing`);
    if (r.http && r.http.targetRate && r.http.reqPerSec < 0.95 * r.http.targetRate) {
      problems.push(`!! ${r.name}: answered ${num(r.http.reqPerSec, 0)} of the intended ${r.http.targetRate} requests/s: measured under overload`);
    }
  }
  for (const e of report.unexpectedExits || []) problems.push(`!! service ${e.service} exited during the run (${e.signal || `code ${e.code}`})`);
  if (problems.length) out.push('', ...problems);
  return `${out.join('\n')}\n`;
}

function writeJson(file, report) {
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

module.exports = { evaluateTargets, render, writeJson, table };

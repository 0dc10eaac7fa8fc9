// The scale mode's figures as plain functions: a row's samples summed up, its curve over the
// three sizes judged flat or not, and the tables printed. No I/O: curve.spec.js tests them.
const { percentile } = require('../lib/util');
const { table } = require('../lib/report');

/** How much the last figure may exceed the first and still be flat: p99 at 100x within 2x of 1x. */
const FLAT_FACTOR = 2;

/** p50, p99 and max of a row's samples (milliseconds), and how many there were. */
function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : null };
}

/**
 * A row's verdict from its figures at each of the `steps` sizes (smallest first): flat when
 * the largest size's p99 is at most FLAT_FACTOR times the smallest's. `ratio` is largest /
 * smallest; both are null when either end is missing (not measured, or every request failed).
 */
function verdict(figures, steps = 3) {
  const first = figures[0] && figures[0].p99;
  const last = figures[steps - 1] && figures[steps - 1].p99;
  if (!isNumber(first) || !isNumber(last) || first <= 0 || steps < 2) return { ratio: null, flat: null };
  const ratio = last / first;
  return { ratio, flat: ratio <= FLAT_FACTOR };
}

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

/** 1234567 -> "1.2M", 100000 -> "100k", 100 -> "100": the sizes in a header. */
function shortCount(n) {
  const compact = (v, unit) => `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;
  if (n >= 1e6) return compact(Math.round(n / 1e5) / 10, 'M');
  if (n >= 1e3) return compact(Math.round(n / 100) / 10, 'k');
  return String(n);
}

function ms(v) {
  if (!isNumber(v)) return '-';
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}

/** One size's cell: "p50 / p99" (or the value of a figure that is one number), "(n=..)" when cut short, "ERR" when nothing answered. */
function cell(fig, unit) {
  if (!fig) return '-';
  if (fig.error && !isNumber(fig.p99)) return 'ERR';
  const shown = unit === 'ms' ? `${ms(fig.p50)} / ${ms(fig.p99)}` : `${ms(fig.p99)} ${unit}`;
  const marks = [];
  if (fig.n !== undefined && fig.expected !== undefined && fig.n < fig.expected) marks.push(`n=${fig.n}`);
  if (fig.failed) marks.push(`${fig.failed} failed`);
  return marks.length ? `${shown} (${marks.join(', ')})` : shown;
}

function verdictText(v) {
  if (v.flat === null) return '-';
  return v.flat ? 'flat' : 'NOT flat';
}

/**
 * A dimension's table: one row per endpoint (or figure), its value at each size side by
 * side, last p99 / first p99 and the verdict; under it why each row that is not flat is not
 * (its `note`, the cost it has by design), or `!!` for one that has no reason to grow.
 */
function renderDimension(dim) {
  const sizes = dim.sizes.map(shortCount);
  const head = ['p50 / p99 ms', ...sizes.map((s, i) => `${s} (${10 ** i}x)`), 'p99 x', 'verdict'];
  const rows = dim.rows.map((r) => {
    const v = verdict(r.figures, dim.sizes.length);
    return [r.name, ...dim.sizes.map((_, i) => cell(r.figures[i], r.unit || 'ms')), v.ratio === null ? '-' : `${v.ratio.toFixed(1)}x`, verdictText(v)];
  });
  const out = [`${dim.title} (${dim.sizes.map((s) => s.toLocaleString('en')).join(' -> ')} ${dim.unit})`, table(head, rows)];
  const notes = [];
  for (const r of dim.rows) {
    const v = verdict(r.figures, dim.sizes.length);
    if (v.flat === false) notes.push(r.note ? `  NOT flat, ${r.name}: ${r.note}` : `!! NOT flat, ${r.name}: nothing in its design makes it grow; look at its query (EXPLAIN)`);
    const failed = r.figures.filter((f) => f && f.failed);
    if (failed.length) notes.push(`!! ${r.name}: ${failed.map((f) => `${f.failed} of ${f.n + f.failed} failed (${JSON.stringify(f.statusCodes || {})})`).join('; ')}`);
  }
  if (dim.seeding) {
    notes.push(`  seeded in ${dim.seeding.map((s) => `${(s.ms / 1000).toFixed(1)} s`).join(', ')} (with VACUUM ANALYZE)`);
  }
  return [...out, ...notes].join('\n');
}

/** Every dimension's table, then a summary of the rows that are not flat. */
function renderScale(report) {
  const out = [];
  const m = report.machine;
  out.push(`Scale benchmark ${report.startedAt} (${report.settings.requests} sequential requests per row after ${report.settings.warmup} warm-up,`
    + ` at most ${report.settings.budgetS} s per row; flat: p99 at 100x <= ${FLAT_FACTOR}x p99 at 1x)`);
  out.push(`Machine: ${m.cpus} CPUs, Node ${m.node}, 1-min load average ${ms(m.loadAverageAtStart)} at start, ${ms(m.loadAverageAtEnd)} at end (other load skews every figure)`);
  for (const dim of report.dimensions) {
    out.push('');
    out.push(dim.error ? `${dim.title}: ERROR ${dim.error}` : renderDimension(dim));
  }
  const all = report.dimensions.flatMap((d) => (d.rows || []).map((r) => ({ dim: d.title, r, v: verdict(r.figures, d.sizes.length) })));
  const notFlat = all.filter((x) => x.v.flat === false);
  out.push('');
  out.push(`${all.filter((x) => x.v.flat === true).length} of ${all.length} rows flat; not flat: ${notFlat.length ? notFlat.map((x) => x.r.name).join(', ') : 'none'}`);
  for (const e of report.unexpectedExits || []) out.push(`!! service ${e.service} exited during the run (${e.signal || `code ${e.code}`})`);
  return `${out.join('\n')}\n`;
}

module.exports = { FLAT_FACTOR, summarize, verdict, shortCount, cell, renderDimension, renderScale };

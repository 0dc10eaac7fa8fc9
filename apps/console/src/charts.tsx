/**
 * Charts of a webhook's or bridge's deliveries, from its delivery statistics
 * (GET …/delivery-stats): deliveries per hour (delivered, retried, failed, stacked) and latency
 * (p50, p99), each an image named for screen readers with its data table beside it, and a small
 * trend for the Integrations page.
 *
 * Drawn by uPlot: small (about 20 KB gzipped), maintained, and it draws on a canvas, which the
 * console's CSP allows (it sets element.style from script, never a style attribute in markup).
 * Canvas does not read CSS variables, so the colours are read from the page's (the theme's)
 * custom properties when a chart is drawn, and it is drawn again when the theme changes.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { api } from './api';
import { trendName } from './deliveries-text';

export interface StatsCounts { delivered: number; retried: number; failed: number; pending: number }
export interface StatsBucket extends StatsCounts { start: string; p50_ms: number | null; p99_ms: number | null }
export interface DeliveryStats {
  since: string;
  until: string;
  bucket: 'hour' | 'day';
  totals: StatsCounts;
  latency_ms: { p50: number | null; p99: number | null };
  buckets: StatsBucket[];
}

/** The periods a chart shows, per hour. */
export const PERIODS = [
  { hours: 24, label: 'Last 24 hours' },
  { hours: 168, label: 'Last 7 days' },
] as const;

/** The statistics of an owner (`…/webhook/{id}` or `…/bridge/{id}`) for the last `hours`, per hour. */
export function readStats(self: string, hours: number, now = Date.now()): Promise<DeliveryStats> {
  // A minute short of the period: the API refuses a since older than 7 days, and the request takes time.
  const since = new Date(now - hours * 3_600_000 + 60_000).toISOString();
  return api<DeliveryStats>('GET', `${self}/delivery-stats?since=${encodeURIComponent(since)}&bucket=hour`);
}

/**
 * A small trend: a bar per hour of the last 24 (delivered, retried, failed, stacked), an image named by
 * its totals. SVG with classes (the theme colours it); no style attribute.
 */
export function Sparkline({ stats }: { stats: DeliveryStats }) {
  const buckets = stats.buckets.slice(-24);
  const top = Math.max(1, ...buckets.map((b) => b.delivered + b.retried + b.failed));
  const width = 3;
  const height = 20;
  return (
    <svg class="sparkline" role="img" aria-label={trendName(stats.totals)} viewBox={`0 0 ${24 * width} ${height}`} preserveAspectRatio="none">
      <rect class="spark-base" x="0" y={height - 0.5} width={24 * width} height="0.5" />
      {buckets.map((b, i) => {
        const ok = (b.delivered / top) * height;
        const retried = (b.retried / top) * height;
        const bad = (b.failed / top) * height;
        const x = (24 - buckets.length + i) * width;
        return (
          <g key={b.start}>
            {ok > 0 && <rect class="spark-delivered" x={x} y={height - ok} width={width - 0.6} height={ok} />}
            {retried > 0 && <rect class="spark-retried" x={x} y={height - ok - retried} width={width - 0.6} height={retried} />}
            {bad > 0 && <rect class="spark-failed" x={x} y={height - ok - retried - bad} width={width - 0.6} height={bad} />}
          </g>
        );
      })}
    </svg>
  );
}

/** An owner's trend for the Integrations page: nothing while it is read, or when it cannot be. */
export function Trend({ self }: { self: string }) {
  const [stats, setStats] = useState<DeliveryStats | null>(null);
  useEffect(() => {
    let shown = true;
    readStats(self, 24).then((s) => shown && setStats(s), () => undefined);
    return () => { shown = false; };
  }, [self]);
  if (!stats) return null;
  // The figures beside it for the eye; the image's name says them to a screen reader.
  const { delivered, retried, failed } = stats.totals;
  return (
    <span class="trend">
      <Sparkline stats={stats} />
      <span class="muted" aria-hidden="true">{delivered + retried} ok · {failed} failed</span>
    </span>
  );
}

/** A theme colour for the canvas: a CSS custom property as the chart's box inherits it. */
type Colour = (name: string, fallback: string) => string;
const coloursOf = (el: Element): Colour => {
  const style = getComputedStyle(el);
  return (name, fallback) => style.getPropertyValue(name).trim() || fallback;
};

const hourLabel = (iso: string) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** uPlot on a div: made when shown, sized to its box, made again when the data or the theme changes. */
function UPlot({ name, describedBy, options, data }: {
  name: string; describedBy: string; options: (width: number, colour: Colour) => uPlot.Options; data: uPlot.AlignedData;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [theme, setTheme] = useState(0);
  useEffect(() => {
    const dark = matchMedia('(prefers-color-scheme: dark)');
    const changed = () => setTheme((n) => n + 1);
    dark.addEventListener('change', changed);
    return () => dark.removeEventListener('change', changed);
  }, []);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const width = () => Math.max(200, el.clientWidth);
    const plot = new uPlot(options(width(), coloursOf(el)), data, el);
    const resized = new ResizeObserver(() => plot.setSize({ width: width(), height: plot.height }));
    resized.observe(el);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [data, theme]);
  return <div ref={box} class="chart" role="img" aria-label={name} aria-describedby={describedBy} />;
}

const axes = (unit: string, colour: Colour): uPlot.Axis[] => {
  const fg = colour('--muted', '#5b6472');
  const grid = { stroke: colour('--line', '#d8dde5'), width: 1 };
  return [
    { stroke: fg, grid, ticks: grid },
    { stroke: fg, grid, ticks: grid, label: unit, labelSize: 18, size: 48 },
  ];
};

/** The x range: every hour of the period, half an hour either side, so the first and last hours' bars and points show whole. */
const hoursOf = (data: uPlot.AlignedData) => (): uPlot.Range.MinMax => {
  const xs = data[0] as number[];
  return xs.length === 0 ? [0, 3600] : [xs[0] - 1800, xs[xs.length - 1] + 1800];
};

/** Deliveries per hour, stacked: each series is the sum of those below it, drawn tallest first. */
function DeliveriesChart({ stats, tableId }: { stats: DeliveryStats; tableId: string }) {
  const data = useMemoData(stats, (b) => [b.delivered + b.retried + b.failed, b.delivered + b.retried, b.delivered]);
  const options = (width: number, colour: Colour): uPlot.Options => {
    const bars = uPlot.paths.bars!({ size: [0.8, 40], align: 0 });
    const series = (label: string, fill: string): uPlot.Series => ({ label, fill, stroke: fill, width: 0, paths: bars, points: { show: false } });
    return {
      width, height: 220, legend: { show: false }, cursor: { show: false }, select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: {
        x: { time: true, range: hoursOf(data) },
        y: { range: (_u, _min, max) => [0, Math.max(4, max)] },
      },
      axes: axes('deliveries', colour),
      series: [
        {},
        series('Failed', colour('--chart-failed', '#c62828')),
        series('Retried', colour('--chart-retried', '#d08c00')),
        series('Delivered', colour('--chart-delivered', '#2e7d32')),
      ],
    };
  };
  return <UPlot name="Deliveries per hour" describedBy={tableId} options={options} data={data} />;
}

function LatencyChart({ stats, tableId }: { stats: DeliveryStats; tableId: string }) {
  const data = useMemoData(stats, (b) => [b.p50_ms, b.p99_ms]);
  const options = (width: number, colour: Colour): uPlot.Options => {
    const line = (label: string, stroke: string, dash?: number[]): uPlot.Series => ({ label, stroke, width: 2, dash, spanGaps: false, points: { show: true, size: 5, fill: stroke } });
    return {
      width, height: 180, legend: { show: false }, cursor: { show: false }, select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: { x: { time: true, range: hoursOf(data) }, y: { range: (_u, _min, max) => [0, Math.max(10, max ?? 0)] } },
      axes: axes('ms', colour),
      series: [{}, line('p50', colour('--chart-p50', '#1f5fbf')), line('p99', colour('--chart-p99', '#7b3fb3'), [6, 4])],
    };
  };
  return <UPlot name="Latency" describedBy={tableId} options={options} data={data} />;
}

/** The statistics as uPlot's columns (x in UNIX seconds), the same array while the statistics are. */
function useMemoData(stats: DeliveryStats, ys: (b: StatsBucket) => Array<number | null>): uPlot.AlignedData {
  const memo = useRef<{ stats: DeliveryStats; data: uPlot.AlignedData } | null>(null);
  if (memo.current?.stats !== stats) {
    const columns = stats.buckets.map(ys);
    const width = columns[0]?.length ?? 0;
    const data: uPlot.AlignedData = [
      stats.buckets.map((b) => Date.parse(b.start) / 1000),
      ...Array.from({ length: width }, (_, i) => columns.map((c) => c[i])),
    ];
    memo.current = { stats, data };
  }
  return memo.current.data;
}

const ms = (v: number | null) => (v === null ? '' : `${Math.round(v)} ms`);

/**
 * A webhook's or bridge's charts, with a choice of period: deliveries per hour and latency,
 * each beside its data table (the hours with deliveries, and the totals).
 */
export function DeliveryCharts({ self, refresh = 0 }: { self: string; refresh?: number }) {
  const [hours, setHours] = useState<number>(24);
  const [stats, setStats] = useState<DeliveryStats | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let shown = true;
    readStats(self, hours).then((s) => { if (shown) { setStats(s); setProblem(null); } }, (err: Error) => shown && setProblem(err.message));
    return () => { shown = false; };
  }, [self, hours, refresh]);
  const period = PERIODS.find((p) => p.hours === hours)!.label.toLowerCase();
  const busy = stats?.buckets.filter((b) => b.delivered + b.retried + b.failed + b.pending > 0) ?? [];
  const timed = stats?.buckets.filter((b) => b.p50_ms !== null) ?? [];
  return (
    <section class="charts" aria-labelledby="charts-heading">
      <h2 id="charts-heading">Deliveries and latency</h2>
      <fieldset class="period">
        <legend>Period</legend>
        {PERIODS.map((p) => (
          <label key={p.hours} class="check">
            <input type="radio" name="period" value={p.hours} checked={hours === p.hours} onChange={() => setHours(p.hours)} />{p.label}
          </label>
        ))}
      </fieldset>
      {problem && <p class="problem" role="alert">The charts could not be read: {problem}</p>}
      {stats === null ? (!problem && <p aria-busy="true">Loading the charts…</p>) : (
        <>
          <p>
            In the {period}: {stats.totals.delivered} delivered at once, {stats.totals.retried} after retries, {stats.totals.failed} failed,
            {' '}{stats.totals.pending} pending{stats.latency_ms.p50 !== null ? `; latency p50 ${ms(stats.latency_ms.p50)}, p99 ${ms(stats.latency_ms.p99)}` : ''}.
          </p>
          <div class="chart-grid">
            <div class="chart-pair">
              <div>
                <DeliveriesChart stats={stats} tableId="deliveries-data" />
                <ul class="chart-key" aria-hidden="true">
                  <li class="key-delivered">Delivered</li><li class="key-retried">Retried</li><li class="key-failed">Failed</li>
                </ul>
              </div>
              <div class="chart-data" tabIndex={0} role="region" aria-label="Deliveries per hour, data">
                <table id="deliveries-data" class="list compact">
                  <caption>Deliveries per hour, {period}</caption>
                  <thead><tr><th scope="col">Hour</th><th scope="col">Delivered</th><th scope="col">Retried</th><th scope="col">Failed</th><th scope="col">Pending</th></tr></thead>
                  <tbody>
                    {busy.length === 0 ? <tr><td colSpan={5}>No deliveries in the {period}.</td></tr> : busy.map((b) => (
                      <tr key={b.start}><th scope="row"><time dateTime={b.start}>{hourLabel(b.start)}</time></th><td>{b.delivered}</td><td>{b.retried}</td><td>{b.failed}</td><td>{b.pending}</td></tr>
                    ))}
                  </tbody>
                  <tfoot><tr><th scope="row">Total</th><td>{stats.totals.delivered}</td><td>{stats.totals.retried}</td><td>{stats.totals.failed}</td><td>{stats.totals.pending}</td></tr></tfoot>
                </table>
              </div>
            </div>
            <div class="chart-pair">
              <div>
                <LatencyChart stats={stats} tableId="latency-data" />
                <ul class="chart-key" aria-hidden="true"><li class="key-p50">p50</li><li class="key-p99">p99</li></ul>
              </div>
              <div class="chart-data" tabIndex={0} role="region" aria-label="Latency, data">
                <table id="latency-data" class="list compact">
                  <caption>Latency per hour, {period}</caption>
                  <thead><tr><th scope="col">Hour</th><th scope="col">p50</th><th scope="col">p99</th></tr></thead>
                  <tbody>
                    {timed.length === 0 ? <tr><td colSpan={3}>No attempts in the {period}.</td></tr> : timed.map((b) => (
                      <tr key={b.start}><th scope="row"><time dateTime={b.start}>{hourLabel(b.start)}</time></th><td>{ms(b.p50_ms)}</td><td>{ms(b.p99_ms)}</td></tr>
                    ))}
                  </tbody>
                  <tfoot><tr><th scope="row">All</th><td>{ms(stats.latency_ms.p50)}</td><td>{ms(stats.latency_ms.p99)}</td></tr></tfoot>
                </table>
              </div>
            </div>
          </div>
        </>
      )}
    </section>
  );
}

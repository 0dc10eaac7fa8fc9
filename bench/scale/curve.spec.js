const { cell, renderDimension, renderScale, shortCount, summarize, verdict } = require('./curve');

const fig = (p99, extra = {}) => ({ n: 200, expected: 200, p50: p99 / 2, p99, max: p99, failed: 0, ...extra });

describe('summarize', () => {
  it('takes nearest-rank percentiles of unsorted samples', () => {
    const samples = [...Array(200).keys()].map((i) => 200 - i); // 200 .. 1
    expect(summarize(samples)).toEqual({ n: 200, p50: 100, p99: 198, max: 200 });
  });

  it('has no figures without samples', () => {
    expect(summarize([])).toEqual({ n: 0, p50: null, p99: null, max: null });
  });
});

describe('verdict', () => {
  it('is flat when p99 at the largest size is at most twice the smallest', () => {
    expect(verdict([fig(10), fig(30), fig(20)])).toEqual({ ratio: 2, flat: true });
  });

  it('is not flat just past twice, whatever the middle size did', () => {
    expect(verdict([fig(10), fig(10), fig(20.5)])).toEqual({ ratio: 2.05, flat: false });
  });

  it('judges only the ends: a peak at 10x alone is flat', () => {
    expect(verdict([fig(10), fig(100), fig(12)]).flat).toBe(true);
  });

  it('has no verdict when an end is missing or failed', () => {
    expect(verdict([fig(10), fig(12)])).toEqual({ ratio: null, flat: null }); // the run stopped before 100x
    expect(verdict([fig(10), fig(12), undefined])).toEqual({ ratio: null, flat: null });
    expect(verdict([{ n: 0, p99: null, failed: 200 }, fig(12), fig(12)])).toEqual({ ratio: null, flat: null });
    expect(verdict([fig(10)], 1)).toEqual({ ratio: null, flat: null });
  });
});

describe('shortCount', () => {
  it.each([[100, '100'], [1_000, '1k'], [10_000, '10k'], [1_500, '1.5k'], [1_000_000, '1M'], [2_500_000, '2.5M']])('%d -> %s', (n, text) => {
    expect(shortCount(n)).toBe(text);
  });
});

describe('cell', () => {
  it('shows p50 / p99, whole milliseconds from 100', () => {
    expect(cell(fig(250, { p50: 12.345 }), 'ms')).toBe('12.3 / 250');
  });

  it('marks a row cut short by its budget and its failures', () => {
    expect(cell(fig(40, { n: 13, failed: 2 }), 'ms')).toBe('20.0 / 40.0 (n=13, 2 failed)');
  });

  it('shows a one-number figure (memory) with its unit', () => {
    expect(cell({ n: 1, p50: 43.2, p99: 43.2 }, 'MB')).toBe('43.2 MB');
  });

  it('says ERR when nothing answered, - when not measured', () => {
    expect(cell({ n: 0, p50: null, p99: null, failed: 30, error: true }, 'ms')).toBe('ERR');
    expect(cell(undefined, 'ms')).toBe('-');
  });
});

describe('renderDimension', () => {
  const dim = {
    title: 'Rooms',
    unit: 'rooms',
    sizes: [100, 1_000, 10_000],
    rows: [
      { name: 'v2 room list, first 100', unit: 'ms', note: null, figures: [fig(10), fig(11), fig(12)] },
      { name: 'v1 rooms/list', unit: 'ms', note: 'answers every room by contract', figures: [fig(10), fig(100), fig(1000)] },
      { name: 'v1 rooms/show', unit: 'ms', note: null, figures: [fig(10), fig(10), fig(30)] },
    ],
  };
  const text = renderDimension(dim);

  it('puts the three sizes side by side with the ratio and the verdict', () => {
    expect(text).toMatch(/^Rooms \(100 -> 1,000 -> 10,000 rooms\)/);
    expect(text).toMatch(/100 \(1x\)\s+1k \(10x\)\s+10k \(100x\)\s+p99 x\s+verdict/);
    expect(text).toMatch(/v2 room list, first 100\s+5\.0 \/ 10\.0\s+5\.5 \/ 11\.0\s+6\.0 \/ 12\.0\s+1\.2x\s+flat/);
    expect(text).toMatch(/v1 rooms\/list\s+.*\s+100\.0x\s+NOT flat/);
  });

  it('gives the reason of a row that grows by design, and flags one that has none', () => {
    expect(text).toContain('  NOT flat, v1 rooms/list: answers every room by contract');
    expect(text).toContain('!! NOT flat, v1 rooms/show:');
    expect(text).not.toContain('NOT flat, v2 room list');
  });
});

describe('renderScale', () => {
  it('sums up the rows that are not flat, and a dimension that failed', () => {
    const report = {
      startedAt: '2026-01-01T00:00:00Z',
      settings: { requests: 200, warmup: 20, budgetS: 30 },
      machine: { cpus: 2, node: 'v20', loadAverageAtStart: 1, loadAverageAtEnd: 1 },
      dimensions: [
        { title: 'Rooms', unit: 'rooms', sizes: [1, 10, 100], rows: [{ name: 'a', unit: 'ms', figures: [fig(1), fig(1), fig(5)] }, { name: 'b', unit: 'ms', figures: [fig(1), fig(1), fig(1)] }] },
        { title: 'Delivery log', error: 'seeding failed' },
      ],
      unexpectedExits: [{ service: 'rooms', code: 1 }],
    };
    const text = renderScale(report);
    expect(text).toContain('1 of 2 rows flat; not flat: a');
    expect(text).toContain('Delivery log: ERROR seeding failed');
    expect(text).toContain('!! service rooms exited during the run (code 1)');
  });
});

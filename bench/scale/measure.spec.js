const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { timeEach } = require('./measure');
const { metricsUrlFrom } = require('./index');

describe('timeEach', () => {
  it('takes every sample within the budget, in order, and sums up those that were ok', async () => {
    const seen = [];
    const fig = await timeEach(4, 60_000, async (i) => {
      seen.push(i);
      return i === 2 ? { ok: false, status: 404 } : { ok: true, ms: (i + 1) * 10 };
    });
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(fig).toEqual({ n: 3, p50: 20, p99: 40, max: 40, expected: 4, failed: 1, statusCodes: { 404: 1 }, error: true });
  });

  it('stops a row past its budget once it has 5 samples', async () => {
    let calls = 0;
    const fig = await timeEach(200, 0, async () => {
      calls++;
      return { ok: true, ms: 1 };
    });
    expect(calls).toBe(5);
    expect(fig).toMatchObject({ n: 5, expected: 200, failed: 0 });
  });
});

describe('metricsUrlFrom', () => {
  it("finds the URL a service's process logged, among other lines and processes", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'scale-')), 'services.log');
    fs.writeFileSync(file, [
      '{"level":30,"service":"rooms","pid":11,"url":"http://127.0.0.1:4001","msg":"metrics listening"}',
      'not json "metrics listening"',
      '{"level":30,"service":"webhook-dispatcher","pid":12,"msg":"started"}',
      '{"level":30,"service":"webhook-dispatcher","pid":12,"url":"http://127.0.0.1:4002","msg":"metrics listening"}',
    ].join('\n'));
    expect(metricsUrlFrom(file, 12)).toBe('http://127.0.0.1:4002');
    expect(metricsUrlFrom(file, 13)).toBeNull();
  });
});

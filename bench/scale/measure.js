// Single-request latency: one request at a time (never two in flight), so that each figure
// is what one request costs at that size, not queueing behind others.
const { performance } = require('node:perf_hooks');
const { summarize } = require('./curve');

/**
 * Times `requests` GETs of `path(i)` against the gateway, one after the other, after `warmup`
 * not counted. A row slower than its budget stops early (after at least 5 samples): its
 * figures carry how many were taken (`n` of `expected`). A non-2xx answer is not a sample;
 * it is counted in `failed` with its status code.
 */
async function timeGets(baseUrl, { path, headers = {}, warmup, requests, budgetMs }) {
  const statusCodes = {};
  let bytes = null;
  const one = async (i) => {
    const started = performance.now();
    let status;
    try {
      const res = await fetch(baseUrl + path(i), { headers, signal: AbortSignal.timeout(30_000) });
      const body = await res.arrayBuffer();
      status = res.status;
      if (status >= 200 && status < 300) bytes = body.byteLength;
    } catch (err) {
      status = err.name === 'TimeoutError' ? 'timeout' : 'error';
    }
    return { ms: performance.now() - started, ok: typeof status === 'number' && status >= 200 && status < 300, status };
  };
  const warmupEnds = performance.now() + budgetMs / 4;
  for (let i = 0; i < warmup && performance.now() < warmupEnds; i++) await one(i);
  // `bytes`: the size of the last answer, to tell a cost that grows with the answer from one that grows with the data.
  return { ...(await timeEach(requests, budgetMs, (i) => one(warmup + i), statusCodes)), bytes };
}

/**
 * Runs `sample(i)` (resolving `{ ms, ok, status }`) `count` times one after the other, or
 * until `budgetMs` is spent and 5 samples are taken; sums up the samples that were ok.
 */
async function timeEach(count, budgetMs, sample, statusCodes = {}) {
  const samples = [];
  let failed = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    if (performance.now() - started > budgetMs && samples.length + failed >= 5) break;
    const r = await sample(i);
    if (r.ok) samples.push(r.ms);
    else {
      failed++;
      statusCodes[r.status] = (statusCodes[r.status] || 0) + 1;
    }
  }
  return { ...summarize(samples), expected: count, failed, ...(failed ? { statusCodes, error: true } : {}) };
}

module.exports = { timeGets, timeEach };

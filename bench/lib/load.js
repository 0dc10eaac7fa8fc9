// autocannon as a library: a short warm-up that is thrown away, then the measured run.
const autocannon = require('autocannon');

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * Runs makeOptions({ warmup }) twice, fresh request state each time: the warm-up (not
 * counted), then the measurement. Connections default to the bench setting. With `probe`
 * (a cpu.js snapshot taker), the figures carry `cpuWindow`, the snapshots taken around the
 * measured run, for the runner to turn into CPU per request.
 */
async function measure(url, settings, makeOptions, probe) {
  const run = (warmup) => {
    // autocannon takes the path from the url only; scenarios give it as `path`.
    const { path = '/', ...options } = makeOptions({ warmup });
    return autocannon({
      url: url + path,
      connections: settings.connections,
      timeout: 10,
      ...options,
      duration: warmup ? settings.warmup : settings.duration,
    });
  };
  if (settings.warmup > 0) await run(true);
  const start = probe ? probe() : null;
  const figures = summarize(await run(false));
  if (probe) figures.cpuWindow = { start, end: probe() };
  return figures;
}

/** The figures the report needs, from an autocannon result. */
function summarize(r) {
  const codes = Object.fromEntries(Object.entries(r.statusCodeStats || {}).map(([code, s]) => [code, s.count]));
  return {
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    ok2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: codes,
    connections: r.connections,
    durationS: r.duration,
  };
}

/** A form-encoded body from an object (what HipChat v1 clients send). */
const form = (params) => new URLSearchParams(params).toString();

module.exports = { measure, summarize, form, FORM };

// Open-loop load at a fixed rate, for latency scenarios: request i leaves at start + i/rate
// whether or not earlier ones have answered. (autocannon's overallRate sends each second's
// quota back to back at the start of the second, which turns 500/s into bursts.)
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { percentile } = require('./util');

/**
 * makeRequest(i) -> { method, path, headers, body, context }; onResponse(status, body,
 * context, atMs) is called when a response has fully arrived. Resolves with the same figures
 * as load.summarize once every request has answered or timed out (timeoutS).
 */
async function paced({ url, rate, durationS, connections, timeoutS = 10, makeRequest, onResponse = () => undefined }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationS);
  const latencies = [];
  const statusCodes = {};
  const stats = { ok2xx: 0, non2xx: 0, errors: 0, timeouts: 0 };
  const pending = new Set();
  const live = new Set(); // requests not answered yet
  const start = performance.now();

  const send = (i) => {
    const scheduled = start + (i * 1000) / rate;
    const { method, path, headers = {}, body = '', context } = makeRequest(i);
    const done = new Promise((settle) => {
      const resolve = () => {
        live.delete(req);
        settle();
      };
      const req = http.request({ agent, host: target.hostname, port: target.port, method, path, timeout: timeoutS * 1000,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const at = performance.now();
          latencies.push(at - scheduled); // from when it was due: queueing counts
          statusCodes[res.statusCode] = (statusCodes[res.statusCode] || 0) + 1;
          stats[res.statusCode >= 200 && res.statusCode < 300 ? 'ok2xx' : 'non2xx'] += 1;
          onResponse(res.statusCode, Buffer.concat(chunks).toString('utf8'), context, at);
          resolve();
        });
      });
      req.on('timeout', () => {
        stats.timeouts += 1;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        stats.errors += 1;
        resolve();
      });
      req.end(body);
      live.add(req);
    });
    pending.add(done);
    done.then(() => pending.delete(done));
  };

  let sent = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) send(sent++);
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // Under overload requests wait in the agent's queue, where no socket timeout applies:
  // wait timeoutS for the rest, then give up on them (counted as errors).
  let timer;
  await Promise.race([Promise.all([...pending]), new Promise((resolve) => (timer = setTimeout(resolve, timeoutS * 1000)))]);
  clearTimeout(timer);
  const elapsedS = (performance.now() - start) / 1000;
  const abandoned = live.size;
  for (const req of live) req.destroy();
  agent.destroy();
  stats.errors += abandoned;
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: (stats.ok2xx + stats.non2xx) / elapsedS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: stats.ok2xx + stats.non2xx,
    ...stats,
    abandoned,
    statusCodes,
    connections,
    durationS: elapsedS,
    targetRate: rate,
  };
}

module.exports = { paced };

// Small helpers shared by the benchmark files.
const crypto = require('node:crypto');
const net = require('node:net');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress goes to stderr so that stdout carries only the result table. */
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

const randomId = () => crypto.randomBytes(4).toString('hex');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs fn over items with at most `limit` calls in flight; results keep the input order. */
async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Retries fn until it resolves, or throws its last error after timeoutMs. */
async function retry(fn, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(intervalMs);
    }
  }
}

/** Nearest-rank percentile of an already sorted array of numbers. */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Stops the system (and cleans up) on Ctrl-C, SIGTERM or a crash, then exits: a bench that
 * dies must not leave three services, a database and a broker namespace behind.
 */
function stopOnExit(stop) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`${signal}: stopping and cleaning up`);
      stop().finally(() => process.exit(130));
    });
  }
  process.once('uncaughtException', (err) => {
    log(`crashed: ${err.stack}`);
    stop().finally(() => process.exit(1));
  });
}

module.exports = { sleep, log, randomId, freePort, mapLimit, retry, percentile, stopOnExit };

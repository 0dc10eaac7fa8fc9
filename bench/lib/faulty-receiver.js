// Webhook receivers that misbehave as a seeded die says (the bench's delivery-faults scenario
// and test/e2e/delivery-faults.e2e-spec.ts both use these): 50% answer 500, 5% hang past the attempt timeout
// (the socket is closed later), 5% reset the connection, 2% answer 410, the rest 204. Each
// records, per webhook-id, what it saw: the bodies, every request's fate, and the requests
// that arrived after its 2xx had been written (duplicates).
const http = require('node:http');
const { performance } = require('node:perf_hooks');

/**
 * Starts one receiver on `host` (127.0.0.1 unless told); `seen` (a Map shared by all receivers) gets
 * webhook-id -> { receiver, bodies: Set, message, answers: [], at: [] (performance.now() of each request), afterOk,
 * okAt (performance.now() of its first 2xx) }.
 */
async function startFaultyReceiver({ index, seen, hangMs, host = '127.0.0.1' }) {
  let seed = 7919 * (index + 1);
  const roll = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const hangs = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const s = seen.get(id) || { receiver: index, bodies: new Set(), message: undefined, answers: [], at: [], afterOk: 0 };
      seen.set(id, s);
      s.at.push(performance.now());
      const body = Buffer.concat(chunks).toString('utf8');
      s.bodies.add(body);
      try {
        const item = JSON.parse(body).item;
        s.message = item && item.message && item.message.message;
      } catch {
        // an unreadable body shows as a delivery whose notification is unknown
      }
      if (s.answers.includes('2xx')) s.afterOk++;
      const r = roll();
      if (r < 0.5) {
        s.answers.push('500');
        res.writeHead(500).end();
      } else if (r < 0.55) {
        s.answers.push('hang');
        const timer = setTimeout(() => {
          hangs.delete(timer);
          req.socket.destroy();
        }, hangMs);
        hangs.add(timer);
      } else if (r < 0.6) {
        s.answers.push('reset');
        req.socket.destroy();
      } else if (r < 0.62) {
        s.answers.push('410');
        res.writeHead(410).end();
      } else {
        // Counted once the answer is on its way: the dispatcher may still die before reading it.
        res.writeHead(204).end(() => {
          if (!s.answers.includes('2xx')) s.okAt = performance.now();
          s.answers.push('2xx');
        });
      }
    });
  });
  await new Promise((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${server.address().port}/hook`,
    close: () => new Promise((resolve) => {
      for (const t of hangs) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

module.exports = { startFaultyReceiver };

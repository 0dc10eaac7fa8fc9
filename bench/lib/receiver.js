// A webhook receiver for the webhook scenarios: a local HTTP server that stamps each
// delivery when it has fully arrived (performance.now(), the clock the senders use) and
// answers 204. A path may be told to hang before answering (a slow receiver).
const http = require('node:http');
const { performance } = require('node:perf_hooks');

/** Starts a receiver; onDelivery(envelope, arrivedAtMs, path, headers) for each POST, onAnswered(path) once it is answered. */
async function startReceiver({ onDelivery = () => undefined, onAnswered = () => undefined, hangMs = {} } = {}) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      let envelope = null;
      try {
        envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // counted by the caller as an unreadable delivery
      }
      const path = req.url.split('?')[0];
      onDelivery(envelope, at, path, req.headers);
      const wait = hangMs[path] || 0;
      setTimeout(() => {
        res.writeHead(204);
        res.end();
        onAnswered(path);
      }, wait).unref();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

/** Registers a webhook of a room through the v2 API; returns its id. */
async function registerWebhook(baseUrl, token, roomId, body) {
  const res = await fetch(`${baseUrl}/v2/room/${roomId}/webhook`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /v2/room/${roomId}/webhook answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text).id;
}

module.exports = { startReceiver, registerWebhook };

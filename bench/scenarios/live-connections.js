// Live connections (GET /v2/room/{room}/events, Server-Sent Events): 1,000 open on the one
// gateway, 100 on each of 10 rooms, while v1 rooms/message sends 500 messages/s round the
// rooms (paced). Latency: from a send's HTTP response to its event's arrival on each
// connection of its room (every connection counts: 100 arrivals per message). Memory: the
// gateway's RSS before the connections open and after (settled), divided by their number.
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { memoryOf } = require('../lib/processes');
const { log, mapLimit, percentile, sleep } = require('../lib/util');

const RATE = 500;
const ROOMS = 10;
const CONNECTIONS = 1_000;
const GRACE_MS = 10_000;

/** One SSE connection: calls onEvent(dataLine, atMs) for each event (complete frames only). */
function openStream(baseUrl, path, token, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${path}: ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.indexOf('\ndata: ');
          if (data !== -1) onEvent(frame.slice(data + 7), at);
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('error', () => undefined);
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

const gatewayRss = (ctx) => {
  const gateway = ctx.system.services && ctx.system.services.find((s) => s.name === 'gateway');
  return gateway ? memoryOf(gateway.pid).rssMB : null;
};

module.exports = {
  name: 'live-connections',
  description: `${CONNECTIONS} live connections (SSE) on one gateway over ${ROOMS} rooms, v1 rooms/message at ${RATE}/s: response -> event on every connection of the room`,
  targets: [
    { metric: 'latency.p99', max: 100, label: 'live event p99 <= 100 ms' },
    { metric: 'latency.missing', max: 0, label: 'every event reaches every connection of its room' },
  ],

  async setup(ctx) {
    const rooms = [];
    for (let i = 0; i < ROOMS; i++) rooms.push(await ctx.fixtures.room(`live-${i}`));
    const personal = await ctx.fixtures.personalToken();
    await sleep(2000);
    const rssBeforeMB = gatewayRss(ctx);
    // arrivals[room] : marker -> arrival times, one per connection that got it
    const arrivals = rooms.map(() => new Map());
    const pattern = new RegExp(`lc[mw]${ctx.runId}-\\d+`);
    log(`live-connections: opening ${CONNECTIONS} connections`);
    const streams = await mapLimit([...Array(CONNECTIONS).keys()], 50, (i) => {
      const r = i % ROOMS;
      return openStream(ctx.baseUrl, `/v2/room/${rooms[r].room_id}/events`, personal, (data, at) => {
        const marker = (data.match(pattern) || [])[0];
        if (!marker) return;
        const times = arrivals[r].get(marker);
        if (times) times.push(at);
        else arrivals[r].set(marker, [at]);
      });
    });
    await sleep(3000);
    const rssAfterMB = gatewayRss(ctx);
    return { token: await ctx.fixtures.adminToken(), rooms, arrivals, streams, rssBeforeMB, rssAfterMB };
  },

  async run(ctx, { token, rooms, arrivals, streams, rssBeforeMB, rssAfterMB }) {
    const responded = new Map(); // marker -> [room index, response time]
    const perRoom = CONNECTIONS / ROOMS;
    const load = (warmup) => ctx.paced({
      rate: RATE,
      durationS: warmup ? ctx.settings.warmup : ctx.settings.duration,
      makeRequest: (i) => {
        const r = i % ROOMS;
        const marker = `lc${warmup ? 'w' : 'm'}${ctx.runId}-${i}`;
        const body = ctx.form({ auth_token: token, room_id: rooms[r].room_id, from: 'bench', message: `live ${marker}`, message_format: 'text' });
        return { method: 'POST', path: '/v1/rooms/message', headers: ctx.FORM, body, context: { marker, r } };
      },
      onResponse: (status, body, { marker, r }, at) => {
        if (!warmup && status >= 200 && status < 300) responded.set(marker, [r, at]);
      },
    });
    try {
      if (ctx.settings.warmup > 0) await load(true);
      const httpResult = await load(false);
      const complete = () => [...responded].every(([m, [r]]) => (arrivals[r].get(m) || []).length >= perRoom);
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && !complete()) await sleep(100);
      const values = [];
      let missing = 0;
      for (const [marker, [r, at]] of responded) {
        const times = arrivals[r].get(marker) || [];
        missing += Math.max(0, perRoom - times.length);
        for (const t of times) values.push(t - at);
      }
      values.sort((a, b) => a - b);
      const rssLoadedMB = gatewayRss(ctx);
      const perConnectionKB = rssBeforeMB !== null && rssAfterMB !== null ? ((rssAfterMB - rssBeforeMB) * 1024) / CONNECTIONS : null;
      return {
        http: httpResult,
        latency: {
          p50: percentile(values, 50), p99: percentile(values, 99), max: values[values.length - 1] ?? null,
          matched: values.length, missing, beforeResponse: values.filter((v) => v < 0).length,
        },
        live: { connections: CONNECTIONS, rooms: ROOMS, rssBeforeMB, rssAfterMB, rssLoadedMB, perConnectionKB },
      };
    } finally {
      for (const s of streams) s.close();
    }
  },
};

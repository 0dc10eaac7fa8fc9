// A burst into a room bridged to Slack (issue 35 §6): 500 messages in 10 s into one room
// whose bridge posts to a Slack-like receiver that allows one post a second (a burst of 5)
// and answers 429 with Retry-After beyond, as Slack documents
// (https://api.slack.com/docs/rate-limits#rate-limits__limits: incoming webhooks, one per
// second, short bursts). Every text must arrive, in order, within 15 s of the last send: the
// dispatcher coalesces what the platform's limit makes wait. The row shows the posts made,
// the 429s met and the CPU per event.
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { sleep } = require('../lib/util');

const MESSAGES = 500;
const SECONDS = 10;
const WITHIN_MS = 15_000;
const GRACE_MS = 60_000;

/** A Slack incoming webhook: 200 `ok`, one post a second with a burst of 5, else 429 Retry-After. */
async function startSlackLike(onPost) {
  const bucket = { tokens: 5, at: performance.now() };
  const stats = { posts: 0, throttled: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      bucket.tokens = Math.min(5, bucket.tokens + (now - bucket.at) / 1000);
      bucket.at = now;
      if (bucket.tokens < 1) {
        stats.throttled++;
        res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': String(Math.max(1, Math.ceil(1 - bucket.tokens))) }).end('rate_limited');
        return;
      }
      bucket.tokens -= 1;
      stats.posts++;
      let body = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // an unreadable post carries no text: counted as missing texts
      }
      onPost(body, now);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    stats,
    url: `http://127.0.0.1:${server.address().port}/services/T0BENCH/B0BENCH/benchsecret`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

/** The burst's message numbers in the room's order (its v2 history: a page lists oldest first). */
async function historyOrder(baseUrl, token, roomId, marker) {
  const res = await fetch(`${baseUrl}/v2/room/${roomId}/history?max-results=1000`, {
    headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 200) throw new Error(`GET /v2/room/${roomId}/history answered ${res.status}`);
  const items = (await res.json()).items;
  const order = [];
  for (const item of items) for (const m of String(item.message).matchAll(marker)) order.push(Number(m[1]));
  return order;
}

/** Every text a Slack post shows: its text and its attachments' texts. */
const textsOf = (post) => [post && post.text, ...((post && post.attachments) || []).flatMap((a) => [a.text, a.fallback, a.pretext])]
  .filter((t) => typeof t === 'string').join('\n');

module.exports = {
  name: 'bridge-burst',
  description: `${MESSAGES} v1 rooms/message in ${SECONDS} s into a room bridged to Slack (1 post/s, burst 5, 429 beyond)`,
  targets: [
    { metric: 'bridge.missing', max: 0, label: 'every text arrives' },
    { metric: 'bridge.outOfOrder', max: 0, label: 'in order' },
    { metric: 'bridge.lastAfterLastSendMs', max: WITHIN_MS, label: 'within 15 s of the last send' },
  ],

  async setup(ctx) {
    const room = await ctx.fixtures.room('bridge-burst');
    const marker = new RegExp(`\\bbb${ctx.runId}-(\\d+)\\b`, 'g');
    const state = { arrived: new Map(), order: [], firstAt: null };
    const receiver = await startSlackLike((post, at) => {
      for (const m of textsOf(post).matchAll(marker)) {
        const i = Number(m[1]);
        if (state.arrived.has(i)) continue;
        state.arrived.set(i, at);
        state.order.push(i);
      }
    });
    const token = await ctx.fixtures.personalToken();
    const res = await fetch(`${ctx.baseUrl}/v2/room/${room.room_id}/bridge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'slack', url: receiver.url, name: 'bench slack', events: ['room_notification'] }),
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status !== 201) throw new Error(`POST /v2/room/${room.room_id}/bridge answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    await sleep(1500); // every dispatcher replica has the registration within a second
    return { token: await ctx.fixtures.adminToken(), personal: token, room, receiver, state, marker };
  },

  async run(ctx, { token, personal, room, receiver, state, marker }) {
    let lastSent = null;
    try {
      const http = await ctx.paced({
        rate: MESSAGES / SECONDS,
        durationS: SECONDS,
        makeRequest: (i) => {
          const body = ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `burst bb${ctx.runId}-${i}`, message_format: 'text' });
          return { method: 'POST', path: '/v1/rooms/message', headers: ctx.FORM, body, context: i };
        },
        onResponse: (_status, _body, _i, at) => {
          lastSent = Math.max(lastSent ?? 0, at);
        },
      });
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && state.arrived.size < http.ok2xx) await sleep(100);
      const arrivals = [...state.arrived.values()];
      const lastArrival = arrivals.length ? Math.max(...arrivals) : null;
      // In order means in the room's order (its history), not the order the requests left in:
      // 50 connections may have them accepted in another order.
      const roomOrder = await historyOrder(ctx.baseUrl, personal, room.room_id, marker);
      const rank = new Map(roomOrder.map((i, k) => [i, k]));
      let outOfOrder = 0;
      for (let k = 1; k < state.order.length; k++) if ((rank.get(state.order[k]) ?? -1) < (rank.get(state.order[k - 1]) ?? -1)) outOfOrder++;
      return {
        http,
        webhooks: { delivered: state.arrived.size },
        bridge: {
          sent: http.ok2xx,
          arrived: state.arrived.size,
          missing: http.ok2xx - state.arrived.size,
          outOfOrder,
          posts: receiver.stats.posts,
          throttled: receiver.stats.throttled,
          lastAfterLastSendMs: lastArrival !== null && lastSent !== null ? Math.round(lastArrival - lastSent) : null,
        },
      };
    } finally {
      await receiver.close();
    }
  },
};

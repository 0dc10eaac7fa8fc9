// How long after a rooms/message response its room.notification-sent.v2 event reaches a
// consumer of the events exchange, with messages sent at a steady 500/s (open loop). Each
// message carries a unique marker; latency = event arrival - HTTP response arrival, both
// taken with performance.now() in this process.
const { percentile, sleep } = require('../lib/util');

const RATE = 500;
const GRACE_MS = 5000;

module.exports = {
  name: 'event-latency',
  description: `rooms/message at ${RATE}/s, time from the response until its event is consumed`,
  targets: [
    { metric: 'latency.p50', max: 10, label: 'event p50 <= 10 ms' },
    { metric: 'latency.p99', max: 30, label: 'event p99 <= 30 ms' },
  ],

  async setup(ctx) {
    return { token: await ctx.fixtures.adminToken(), room: await ctx.fixtures.room('events') };
  },

  async run(ctx, { token, room }) {
    const responded = new Map(); // marker -> response arrival, measured phase only
    const arrived = new Map(); // marker -> event arrival
    const pattern = new RegExp(`\\bev[mw]${ctx.runId}-\\d+\\b`);
    const close = await ctx.listenEvents('room.notification-sent.v2', (event, at) => {
      const text = event && event.payload && event.payload.message && event.payload.message.message;
      const marker = typeof text === 'string' && (text.match(pattern) || [])[0];
      if (marker && !arrived.has(marker)) arrived.set(marker, at);
    });
    const load = (warmup) => ctx.paced({
      rate: RATE,
      durationS: warmup ? ctx.settings.warmup : ctx.settings.duration,
      makeRequest: (i) => {
        const marker = `ev${warmup ? 'w' : 'm'}${ctx.runId}-${i}`;
        const body = ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `hello ${marker}`, message_format: 'text' });
        return { method: 'POST', path: '/v1/rooms/message', headers: ctx.FORM, body, context: marker };
      },
      onResponse: (status, body, marker, at) => {
        if (!warmup && status >= 200 && status < 300) responded.set(marker, at);
      },
    });
    try {
      if (ctx.settings.warmup > 0) await load(true);
      const http = await load(false);
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && [...responded.keys()].some((m) => !arrived.has(m))) await sleep(100);
      return { http, latency: latencies(responded, arrived) };
    } finally {
      await close();
    }
  },
};

function latencies(responded, arrived) {
  const values = [];
  for (const [marker, at] of responded) if (arrived.has(marker)) values.push(arrived.get(marker) - at);
  values.sort((a, b) => a - b);
  return {
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.length ? values[values.length - 1] : null,
    matched: values.length,
    missing: responded.size - values.length,
    // The event can reach the bench before the HTTP response does: a negative latency.
    beforeResponse: values.filter((v) => v < 0).length,
  };
}

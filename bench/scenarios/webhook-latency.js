// How long after a notification is accepted (its HTTP response) its webhook delivery
// reaches a local receiver, at a paced 500 notifications/s: accept -> received.
const { percentile, sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');

const RATE = 500;
const GRACE_MS = 10_000;

module.exports = {
  name: 'webhook-latency',
  description: `v1 rooms/message at ${RATE}/s, time from the response until its webhook is received`,
  targets: [
    { metric: 'latency.p50', max: 15, label: 'webhook p50 <= 15 ms' },
    { metric: 'latency.p99', max: 60, label: 'webhook p99 <= 60 ms' },
  ],

  async setup(ctx) {
    const room = await ctx.fixtures.room('webhook-latency');
    const arrived = new Map();
    const pattern = new RegExp(`\\bwl[mw]${ctx.runId}-\\d+\\b`);
    const receiver = await startReceiver({
      onDelivery: (envelope, at) => {
        const text = envelope && envelope.item && envelope.item.message && envelope.item.message.message;
        const marker = typeof text === 'string' && (text.match(pattern) || [])[0];
        if (marker && !arrived.has(marker)) arrived.set(marker, at);
      },
    });
    await registerWebhook(ctx.baseUrl, await ctx.fixtures.personalToken(), room.room_id, { url: receiver.url(), event: 'room_notification', name: 'bench' });
    await sleep(1500); // every dispatcher replica has the registration within a second
    return { token: await ctx.fixtures.adminToken(), room, receiver, arrived };
  },

  async run(ctx, { token, room, receiver, arrived }) {
    const responded = new Map();
    const load = (warmup) => ctx.paced({
      rate: RATE,
      durationS: warmup ? ctx.settings.warmup : ctx.settings.duration,
      makeRequest: (i) => {
        const marker = `wl${warmup ? 'w' : 'm'}${ctx.runId}-${i}`;
        const body = ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `hook ${marker}`, message_format: 'text' });
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
      const values = [];
      for (const [marker, at] of responded) if (arrived.has(marker)) values.push(arrived.get(marker) - at);
      values.sort((a, b) => a - b);
      return {
        http,
        latency: {
          p50: percentile(values, 50), p99: percentile(values, 99), max: values[values.length - 1] ?? null,
          matched: values.length, missing: responded.size - values.length, beforeResponse: values.filter((v) => v < 0).length,
        },
      };
    } finally {
      await receiver.close();
    }
  },
};

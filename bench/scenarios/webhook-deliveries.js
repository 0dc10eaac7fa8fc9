// Webhook throughput: notifications sent as fast as autocannon can, each delivered to one
// local receiver; deliveries per second from the first send to the last delivery.
const { performance } = require('node:perf_hooks');
const { sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');

const GRACE_MS = 30_000;

module.exports = {
  name: 'webhook-deliveries',
  description: 'v1 rooms/message as fast as possible, each delivered to a local receiver',
  targets: [{ metric: 'ratio', min: 0.30, label: 'deliveries/s >= 30% of baseline req/s' }],

  async setup(ctx) {
    const room = await ctx.fixtures.room('webhook-deliveries');
    const state = { delivered: 0, first: null, last: null };
    const marker = `dm${ctx.runId}-`;
    const receiver = await startReceiver({
      onDelivery: (envelope, at) => {
        const text = envelope && envelope.item && envelope.item.message && envelope.item.message.message;
        if (typeof text !== 'string' || !text.startsWith(marker)) return; // warm-up deliveries are not counted
        state.delivered++;
        state.last = at;
      },
    });
    await registerWebhook(ctx.baseUrl, await ctx.fixtures.personalToken(), room.room_id, { url: receiver.url(), event: 'room_notification', name: 'bench' });
    await sleep(1500);
    return { token: await ctx.fixtures.adminToken(), room, receiver, state };
  },

  async run(ctx, { token, room, receiver, state }) {
    try {
      let n = 0;
      const http = await ctx.measure(({ warmup }) => {
        const prefix = warmup ? `dw${ctx.runId}-` : `dm${ctx.runId}-`;
        if (!warmup) state.first = performance.now();
        return {
          method: 'POST',
          path: '/v1/rooms/message',
          headers: ctx.FORM,
          requests: [{ setupRequest: (req) => ({ ...req, body: ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `${prefix}${++n}`, message_format: 'text' }) }) }],
        };
      });
      const expected = http.requests - http.non2xx - http.errors;
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && state.delivered < expected) await sleep(100);
      const withinMs = (state.last ?? state.first) - state.first;
      const perSec = withinMs > 0 ? (state.delivered * 1000) / withinMs : 0;
      return {
        http,
        webhooks: { perSec, delivered: state.delivered, expected, withinMs, p99: null },
        ratio: ctx.baseline ? perSec / ctx.baseline.reqPerSec : null,
      };
    } finally {
      await receiver.close();
    }
  },
};

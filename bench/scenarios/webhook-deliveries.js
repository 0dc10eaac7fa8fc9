// Webhook throughput: notifications sent as fast as autocannon can, each delivered to one
// local receiver; deliveries per second from the first send to the last delivery.
const { sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');
const { sendAndCountDeliveries } = require('../lib/deliveries');

const GRACE_MS = 30_000;

module.exports = {
  name: 'webhook-deliveries',
  description: 'v1 rooms/message as fast as possible, each delivered to a local receiver',
  // Issue 35 §6 replaced issue 13's 30% of the bare baseline (a delivery needs a message, and a
  // message alone costs more than that): a delivery against a message in the same run, and the
  // dispatcher's own CPU per delivery. Measured with message-one-room in the same run.
  relativeTo: { scenario: 'message-one-room', metric: 'webhooks.perSec', base: 'http.reqPerSec', as: 'vsMessageOneRoom' },
  targets: [
    { metric: 'vsMessageOneRoom', min: 0.60, label: 'deliveries/s >= 60% of message-one-room req/s' },
    { metric: 'cpu.perUnitMs.webhook-dispatcher', max: 0.45, label: 'dispatcher CPU <= 0.45 ms per delivery' },
  ],

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
      const { http, webhooks } = await sendAndCountDeliveries(ctx, {
        token, room, state, prefix: `dm${ctx.runId}-`, warmupPrefix: `dw${ctx.runId}-`, graceMs: GRACE_MS,
      });
      return { http, webhooks, ratio: ctx.baseline ? webhooks.perSec / ctx.baseline.reqPerSec : null };
    } finally {
      await receiver.close();
    }
  },
};

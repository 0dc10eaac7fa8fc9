// Ordered delivery ("delivery": "ordered") to one registration: notifications sent as fast
// as autocannon can to one room, each delivered to one local receiver one at a time (the
// receiver checks that it never has two of them in hand at once). Deliveries per second from
// the first send to the last delivery: the rate one lane sustains, a request at a time.
const { registerWebhook, startReceiver } = require('../lib/receiver');
const { sendAndCountDeliveries } = require('../lib/deliveries');

const GRACE_MS = 60_000;

module.exports = {
  name: 'webhook-ordered',
  description: 'v1 rooms/message as fast as possible, delivered in order to one ordered registration',
  targets: [{ metric: 'ordered.mostInHand', max: 1, label: 'ordered: one delivery in hand at a time' }],

  async setup(ctx) {
    const room = await ctx.fixtures.room('webhook-ordered');
    const state = { delivered: 0, first: null, last: null, inHand: 0, mostInHand: 0 };
    const marker = `om${ctx.runId}-`;
    const receiver = await startReceiver({
      onDelivery: (envelope, at) => {
        state.mostInHand = Math.max(state.mostInHand, ++state.inHand);
        const text = envelope && envelope.item && envelope.item.message && envelope.item.message.message;
        if (typeof text !== 'string' || !text.startsWith(marker)) return; // warm-up deliveries are not counted
        state.delivered++;
        state.last = at;
      },
      onAnswered: () => { state.inHand--; },
    });
    await registerWebhook(ctx.baseUrl, await ctx.fixtures.personalToken(), room.room_id,
      { url: receiver.url(), event: 'room_notification', name: 'bench ordered', delivery: 'ordered' });
    return { token: await ctx.fixtures.adminToken(), room, receiver, state };
  },

  async run(ctx, { token, room, receiver, state }) {
    try {
      const { http, webhooks } = await sendAndCountDeliveries(ctx, {
        token, room, state, prefix: `om${ctx.runId}-`, warmupPrefix: `ow${ctx.runId}-`, graceMs: GRACE_MS,
      });
      return { http, webhooks, ordered: { mostInHand: state.mostInHand } };
    } finally {
      await receiver.close();
    }
  },
};

// One event, 1,000 registrations: the time from the notification's response until the
// last of its 1,000 deliveries has arrived.
const { performance } = require('node:perf_hooks');
const { mapLimit, sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');

const REGISTRATIONS = 1000;

module.exports = {
  name: 'webhook-fanout',
  description: `one notification to a room with ${REGISTRATIONS} webhooks, until the last delivery arrives`,
  targets: [{ metric: 'webhooks.withinMs', max: 1000, label: `${REGISTRATIONS} deliveries within 1 s` }],

  async setup(ctx) {
    const room = await ctx.fixtures.room('webhook-fanout');
    const state = { marker: null, arrivals: [] };
    const receiver = await startReceiver({
      onDelivery: (envelope, at) => {
        const text = envelope && envelope.item && envelope.item.message && envelope.item.message.message;
        if (state.marker && text === state.marker) state.arrivals.push(at);
      },
    });
    const token = await ctx.fixtures.personalToken();
    await mapLimit([...Array(REGISTRATIONS).keys()], 10, (i) => registerWebhook(ctx.baseUrl, token, room.room_id, {
      url: receiver.url(`/fan/${i}`), event: 'room_notification', name: `fan ${i}`,
    }));
    await sleep(2000);
    return { token: await ctx.fixtures.adminToken(), room, receiver, state };
  },

  async run(ctx, { token, room, receiver, state }) {
    try {
      const results = [];
      // Three rounds; the figure is the median round.
      for (let round = 0; round < 3; round++) {
        state.marker = `fan${ctx.runId}-${round}`;
        state.arrivals = [];
        const body = ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: state.marker, message_format: 'text' });
        const res = await fetch(`${ctx.baseUrl}/v1/rooms/message`, { method: 'POST', headers: ctx.FORM, body });
        const respondedAt = performance.now();
        if (res.status !== 200) throw new Error(`rooms/message answered ${res.status}`);
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline && state.arrivals.length < REGISTRATIONS) await sleep(20);
        const last = state.arrivals.length ? Math.max(...state.arrivals) : null;
        results.push({ delivered: state.arrivals.length, withinMs: last === null ? null : last - respondedAt });
        await sleep(1000);
      }
      results.sort((a, b) => (a.withinMs ?? Infinity) - (b.withinMs ?? Infinity));
      const median = results[1];
      return { webhooks: { perSec: median.withinMs ? (median.delivered * 1000) / median.withinMs : 0, delivered: median.delivered, expected: REGISTRATIONS, withinMs: median.delivered === REGISTRATIONS ? median.withinMs : null, p99: null } };
    } finally {
      await receiver.close();
    }
  },
};

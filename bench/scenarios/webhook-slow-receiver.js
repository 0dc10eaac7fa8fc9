// Isolation: the p99 of deliveries to a fast receiver alone, then beside a receiver that
// hangs 10 s on every delivery, then alone again. The slow one must not hold the others up.
// Alone is the mean of the two alone phases around the one beside (A-B-A): a machine that
// gets busier or quieter during the run (a JIT still warming up, a vacuum after the scenario
// before) moves both sides alike, where one alone phase first made the ratio swing from 0.5
// to 2.2 between runs of the same tree. A warm-up phase, not counted, comes first.
const { percentile, sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');

const RATE = 200;

module.exports = {
  name: 'webhook-slow-receiver',
  description: `v1 rooms/message at ${RATE}/s: fast receiver's p99 alone, then beside one hanging 10 s`,
  targets: [{ metric: 'isolation.p99Ratio', max: 1.2, label: 'p99 with a hanging receiver <= 1.2 x alone' }],

  async setup(ctx) {
    const alone = await ctx.fixtures.room('webhook-alone');
    const beside = await ctx.fixtures.room('webhook-beside');
    const arrived = new Map();
    const pattern = new RegExp(`\\bsr[wabc]${ctx.runId}-\\d+\\b`);
    const receiver = await startReceiver({
      hangMs: { '/slow': 10_000 },
      onDelivery: (envelope, at, path) => {
        if (path !== '/fast') return;
        const text = envelope && envelope.item && envelope.item.message && envelope.item.message.message;
        const marker = typeof text === 'string' && (text.match(pattern) || [])[0];
        if (marker && !arrived.has(marker)) arrived.set(marker, at);
      },
    });
    const token = await ctx.fixtures.personalToken();
    await registerWebhook(ctx.baseUrl, token, alone.room_id, { url: receiver.url('/fast'), event: 'room_notification', name: 'fast' });
    await registerWebhook(ctx.baseUrl, token, beside.room_id, { url: receiver.url('/fast'), event: 'room_notification', name: 'fast' });
    await registerWebhook(ctx.baseUrl, token, beside.room_id, { url: receiver.url('/slow'), event: 'room_notification', name: 'slow' });
    await sleep(1500);
    return { token: await ctx.fixtures.adminToken(), alone, beside, receiver, arrived };
  },

  async run(ctx, { token, alone, beside, receiver, arrived }) {
    const phase = async (room, tag, durationS = ctx.settings.duration) => {
      const responded = new Map();
      const http = await ctx.paced({
        rate: RATE,
        durationS,
        makeRequest: (i) => {
          const marker = `sr${tag}${ctx.runId}-${i}`;
          return { method: 'POST', path: '/v1/rooms/message', headers: ctx.FORM, context: marker,
            body: ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `iso ${marker}`, message_format: 'text' }) };
        },
        onResponse: (status, body, marker, at) => {
          if (status >= 200 && status < 300) responded.set(marker, at);
        },
      });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && [...responded.keys()].some((m) => !arrived.has(m))) await sleep(100);
      const values = [...responded].filter(([m]) => arrived.has(m)).map(([m, at]) => arrived.get(m) - at).sort((a, b) => a - b);
      return { http, p99: percentile(values, 99), p50: percentile(values, 50), matched: values.length, missing: responded.size - values.length };
    };
    try {
      if (ctx.settings.warmup > 0) await phase(alone, 'w', ctx.settings.warmup);
      const before = await phase(alone, 'a');
      await sleep(1000);
      const b = await phase(beside, 'b');
      await sleep(1000);
      const after = await phase(alone, 'c');
      const aloneP99 = (before.p99 + after.p99) / 2;
      return {
        http: b.http,
        latency: { p50: b.p50, p99: b.p99, max: null, matched: b.matched, missing: b.missing, beforeResponse: 0 },
        isolation: { aloneP99, aloneP99Before: before.p99, aloneP99After: after.p99, besideP99: b.p99, p99Ratio: aloneP99 > 0 ? b.p99 / aloneP99 : null },
      };
    } finally {
      await receiver.close();
    }
  },
};

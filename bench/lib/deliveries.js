// Webhook throughput, shared by the scenarios that measure it: rooms/message to one room as
// fast as autocannon can, each message marked `<prefix><n>`, then the wait for its delivery.
const { performance } = require('node:perf_hooks');
const { sleep } = require('./util');

/**
 * Sends the messages (warm-up ones marked `${warmupPrefix}`, measured ones `${prefix}`) and
 * waits up to `graceMs` for `state.delivered` (counted by the scenario's receiver, which
 * sets `state.last`) to reach the accepted count. Answers the HTTP figures and the
 * deliveries per second from the first measured send to the last delivery.
 */
async function sendAndCountDeliveries(ctx, { token, room, state, prefix, warmupPrefix, graceMs }) {
  let n = 0;
  const http = await ctx.measure(({ warmup }) => {
    const marker = warmup ? warmupPrefix : prefix;
    if (!warmup) state.first = performance.now();
    return {
      method: 'POST',
      path: '/v1/rooms/message',
      headers: ctx.FORM,
      requests: [{ setupRequest: (req) => ({ ...req, body: ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `${marker}${++n}`, message_format: 'text' }) }) }],
    };
  });
  const expected = http.requests - http.non2xx - http.errors;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && state.delivered < expected) await sleep(100);
  const withinMs = (state.last ?? state.first) - state.first;
  const perSec = withinMs > 0 ? (state.delivered * 1000) / withinMs : 0;
  return { http, webhooks: { perSec, delivered: state.delivered, expected, withinMs, p99: null } };
}

module.exports = { sendAndCountDeliveries };

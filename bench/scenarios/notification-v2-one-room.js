// The v2 integration case: a personal token posting notifications to one room (JSON body,
// Bearer token), through the v2 guards: token, rate limit, scopes and the room's flood control.
module.exports = {
  name: 'notification-v2-one-room',
  description: 'POST /v2/room/{id}/notification, one personal token, one room',
  targets: [
    { metric: 'ratio', min: 0.35, label: 'req/s >= 35% of baseline' },
    { metric: 'http.p99', max: 60, label: 'p99 <= 60 ms' },
  ],

  async setup(ctx) {
    return { token: await ctx.fixtures.personalToken(), room: await ctx.fixtures.room('v2') };
  },

  autocannonOptions(ctx, { token, room }) {
    let n = 0;
    return {
      method: 'POST',
      path: `/v2/room/${room.room_id}/notification`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      requests: [{
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ message: `hello ${++n}`, message_format: 'text', color: 'green' }) }),
      }],
    };
  },
};

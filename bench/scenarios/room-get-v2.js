// A v2 read: one room's record (GET /v2/room/{id}), as an integration polls it, with a
// personal token (Bearer) through the v2 guards: token, rate limit, scopes.
module.exports = {
  name: 'room-get-v2',
  description: 'GET /v2/room/{id}, one personal token, one room',
  targets: [{ metric: 'ratio', min: 0.35, label: 'req/s >= 35% of baseline' }],

  async setup(ctx) {
    return { token: await ctx.fixtures.personalToken(), room: await ctx.fixtures.room('v2-get') };
  },

  autocannonOptions(ctx, { token, room }) {
    return { method: 'GET', path: `/v2/room/${room.room_id}`, headers: { authorization: `Bearer ${token}` } };
  },
};

// The CI-bot case: one admin token posting to one room as fast as it can.
module.exports = {
  name: 'message-one-room',
  description: 'POST /v1/rooms/message, one token, one room',
  targets: [
    { metric: 'ratio', min: 0.35, label: 'req/s >= 35% of baseline' },
    { metric: 'http.p99', max: 60, label: 'p99 <= 60 ms' },
  ],

  async setup(ctx) {
    return { token: await ctx.fixtures.adminToken(), room: await ctx.fixtures.room('one') };
  },

  autocannonOptions(ctx, { token, room }) {
    let n = 0;
    return {
      method: 'POST',
      path: '/v1/rooms/message',
      headers: ctx.FORM,
      requests: [{
        setupRequest: (req) => ({
          ...req,
          body: ctx.form({ auth_token: token, room_id: room.room_id, from: 'bench', message: `hello ${++n}`, message_format: 'text' }),
        }),
      }],
    };
  },
};

// Many integrations at once: request i goes to room i and uses token i (round-robin over 50).
const COUNT = 50;

module.exports = {
  name: 'message-50-rooms',
  description: `POST /v1/rooms/message over ${COUNT} rooms and ${COUNT} tokens`,
  targets: [{ metric: 'ratio', min: 0.4, label: 'req/s >= 40% of baseline' }],

  async setup(ctx) {
    return { tokens: await ctx.fixtures.adminTokens(COUNT), rooms: await ctx.fixtures.rooms(COUNT) };
  },

  autocannonOptions(ctx, { tokens, rooms }) {
    let n = 0;
    return {
      method: 'POST',
      path: '/v1/rooms/message',
      headers: ctx.FORM,
      requests: [{
        setupRequest: (req) => {
          const i = n++ % COUNT;
          return {
            ...req,
            body: ctx.form({ auth_token: tokens[i], room_id: rooms[i].room_id, from: 'bench', message: `hello ${n}`, message_format: 'text' }),
          };
        },
      }],
    };
  },
};

// A read: the room list, with 50 rooms in it.
module.exports = {
  name: 'rooms-list',
  description: 'GET /v1/rooms/list with 50 rooms',
  targets: [{ metric: 'ratio', min: 0.5, label: 'req/s >= 50% of baseline' }],
  // v1 lists every room: run before the scenarios that make rooms of their own (about 70 in a
  // full run), so that the list is the 50 it says. After them it measured 15-17% against
  // 21-25% alone.
  first: true,

  async setup(ctx) {
    await ctx.fixtures.rooms(50);
    return { token: await ctx.fixtures.adminToken() };
  },

  autocannonOptions(ctx, { token }) {
    return { method: 'GET', path: `/v1/rooms/list?${ctx.form({ auth_token: token })}` };
  },
};

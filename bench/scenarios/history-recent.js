// A heavier read: the 75 most recent messages of a room that has more than that.
module.exports = {
  name: 'history-recent',
  description: 'GET /v1/rooms/history date=recent, room with 80 messages',
  targets: [{ metric: 'ratio', min: 0.25, label: 'req/s >= 25% of baseline' }],

  async setup(ctx) {
    const room = await ctx.fixtures.room('history');
    await ctx.fixtures.postMessages(room, 80);
    return { token: await ctx.fixtures.adminToken(), room };
  },

  autocannonOptions(ctx, { token, room }) {
    return { method: 'GET', path: `/v1/rooms/history?${ctx.form({ auth_token: token, room_id: room.room_id, date: 'recent' })}` };
  },
};

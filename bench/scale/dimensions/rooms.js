// Rooms: the v1 list (every room), v2 list pages and one room, from 100 to 10k rooms.
const { seedAuthors, seedRooms } = require('../seed');

/** Grows the seeded rooms (`scale-room-<g>`) until the rooms table holds `size`; answers how many it added. */
async function growRooms(ctx, size) {
  const { rows: [c] } = await ctx.db.query(`SELECT count(*)::int AS total,
      coalesce(max(substr(name, 12)::int) FILTER (WHERE name LIKE 'scale-room-%'), 0) AS seeded FROM rooms`);
  const need = size - c.total;
  if (need <= 0) return 0;
  const authors = await seedAuthors(ctx.db, await ctx.fixtures.owner(), 20);
  const ownerIds = [await ctx.fixtures.owner(), ...authors.map((a) => a.id)];
  await seedRooms(ctx.db, { from: c.seeded + 1, to: c.seeded + need, ownerIds });
  return need;
}

module.exports = {
  name: 'rooms',
  title: 'Rooms',
  unit: 'rooms',
  sizes: [100, 1_000, 10_000],
  tables: ['rooms', 'room_members'],
  growRooms,

  async setup() {
    return {};
  },

  grow(ctx, state, size) {
    return growRooms(ctx, size);
  },

  async rows(ctx, state, size) {
    // Rooms across the whole range, so that rooms/show does not read one hot row only.
    const { rows } = await ctx.db.query(`SELECT id FROM rooms WHERE id % greatest(1, (SELECT count(*) FROM rooms) / 20) = 0 ORDER BY id`);
    const ids = rows.map((r) => r.id);
    return [
      {
        name: 'v1 rooms/list (every room)',
        path: () => `/v1/rooms/list?auth_token=${ctx.adminToken}`,
        note: 'the v1 API answers every room in one response (it has no paging): its work and its answer grow with the rooms by contract',
      },
      { name: 'v2 room list, first 100', path: () => '/v2/room?max-results=100', v2: true },
      {
        name: 'v2 room list, start-index=N/2, 100',
        path: () => `/v2/room?start-index=${Math.floor(size / 2)}&max-results=100`,
        v2: true,
        note: 'OFFSET paging: start-index = half the rooms makes PostgreSQL read, filter and drop that many rows'
          + ' (and compute their last activity) before the page',
      },
      { name: 'v1 rooms/show', path: (i) => `/v1/rooms/show?auth_token=${ctx.adminToken}&room_id=${ids[i % ids.length]}` },
    ];
  },
};

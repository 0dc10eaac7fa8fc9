// Messages in one room: history (v1 recent and by day, v2 pages) and one message, as the
// room grows from 10k to 1M messages at a steady 500 a day (so a day holds as many at
// every size, and "by date" answers the same amount whatever the size).
const { seedAuthors, seedMessages } = require('../seed');

const PER_DAY = 500;
const SPACING_MS = 86_400_000 / PER_DAY;
const OFFSET_NOTE = 'OFFSET paging: start-index = half the room makes PostgreSQL read (and join) that many rows and drop them'
  + ' before the page; v2 pages by start-index, so only a bound on position (keyset) could keep a deep page flat';

module.exports = {
  name: 'messages',
  title: 'Messages in one room',
  unit: 'messages',
  sizes: [10_000, 100_000, 1_000_000],
  tables: ['messages', 'users'],

  async setup(ctx) {
    const room = await ctx.fixtures.room('scale-messages');
    const authors = await seedAuthors(ctx.db, await ctx.fixtures.owner(), 20);
    const largest = ctx.sizes(this)[2];
    // The room's first message `largest` steps (plus a day) before now: every seeded message is in the past.
    const startMs = Date.now() - (largest + PER_DAY) * SPACING_MS;
    return { room, authors, startMs, seeded: 0 };
  },

  async grow(ctx, state, size) {
    if (size <= state.seeded) return 0;
    await seedMessages(ctx.db, { roomId: state.room.room_id, from: state.seeded + 1, to: size, authors: state.authors, startMs: state.startMs, spacingMs: SPACING_MS });
    const added = size - state.seeded;
    state.seeded = size;
    return added;
  },

  async rows(ctx, state, size) {
    const roomId = state.room.room_id;
    const middleDay = new Date(state.startMs + Math.ceil(size / 2) * SPACING_MS).toISOString().slice(0, 10);
    const { rows } = await ctx.db.query('SELECT id FROM messages WHERE room_id = $1 ORDER BY random() LIMIT 200', [roomId]);
    const ids = rows.map((r) => r.id);
    const v1 = (params) => () => `/v1/rooms/history?${new URLSearchParams({ auth_token: ctx.adminToken, room_id: String(roomId), ...params })}`;
    const v2 = (rest) => () => `/v2/room/${roomId}/history${rest}`;
    const now = encodeURIComponent(new Date().toISOString());
    return [
      { name: 'v1 history, date=recent', path: v1({ date: 'recent' }) },
      { name: 'v1 history, date=<a day in the middle>', path: v1({ date: middleDay }) },
      { name: 'v2 history (default: recent)', path: v2(''), v2: true },
      { name: 'v2 history, date=<middle day>, 100', path: v2(`?date=${middleDay}&max-results=100`), v2: true },
      { name: 'v2 history, start-index=N/2, 100', path: v2(`?date=${now}&start-index=${Math.floor(size / 2)}&max-results=100`), v2: true, note: OFFSET_NOTE },
      { name: 'v2 GET one message', path: (i) => `/v2/room/${roomId}/history/${ids[i % ids.length]}`, v2: true },
    ];
  },
};

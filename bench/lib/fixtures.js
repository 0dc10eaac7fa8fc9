// Test data made through the system's own interfaces, created once per run and shared by
// the scenarios that ask for it (the 50 rooms serve message-50-rooms and rooms-list).
const { v1, createToken } = require('./api');
const { log, mapLimit, retry } = require('./util');

function fixtures(system, runId) {
  const memo = new Map();
  const once = (key, make) => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key);
  };
  const api = (verb, method, params) => v1(system.baseUrl, verb, method, params);

  const f = {
    /** The first admin token; retried until the database is migrated and the API answers (60 s). */
    adminToken: () => once('adminToken', async () => {
      const token = await retry(() => createToken(system.env, 'admin', `bench ${runId}`), 60_000, 500);
      await retry(() => api('GET', 'rooms/list', { auth_token: token }), 60_000, 500);
      return token;
    }),
    /** n more admin tokens, made with the CLI, 4 at a time. */
    adminTokens: (n) => once(`adminTokens:${n}`, async () => {
      log(`creating ${n} admin tokens with the CLI`);
      return mapLimit([...Array(n).keys()], 4, (i) => createToken(system.env, 'admin', `bench ${runId} ${i}`));
    }),
    /** A v2 personal token of the bench rooms' owner (every scope). */
    personalToken: () => once('personalToken', async () => {
      await f.owner();
      return createToken(system.env, 'personal', `bench ${runId} v2`, ['--user', `bench-${runId}@example.com`]);
    }),
    /** The user that owns the bench rooms. */
    owner: () => once('owner', async () => {
      const auth_token = await f.adminToken();
      const { user } = await api('POST', 'users/create', { auth_token, email: `bench-${runId}@example.com`, name: 'Bench Owner' });
      return user.user_id;
    }),
    /** One room, named after the key; returns { room_id, name }. */
    room: (key) => once(`room:${key}`, async () => {
      const [auth_token, owner_user_id] = [await f.adminToken(), await f.owner()];
      const { room } = await api('POST', 'rooms/create', { auth_token, owner_user_id, name: `bench-${runId}-${key}` });
      return { room_id: room.room_id, name: room.name };
    }),
    /** Rooms 1..n. */
    rooms: (n) => once(`rooms:${n}`, async () => {
      log(`creating ${n} rooms`);
      return mapLimit([...Array(n).keys()], 5, (i) => f.room(`r${i + 1}`));
    }),
    /** Posts `count` messages to a room through rooms/message. */
    postMessages: async (room, count) => {
      const auth_token = await f.adminToken();
      await mapLimit([...Array(count).keys()], 5, (i) => api('POST', 'rooms/message', {
        auth_token, room_id: room.room_id, from: 'bench', message: `history ${i + 1}`, message_format: 'text',
      }));
    },
    api,
  };
  return f;
}

module.exports = { fixtures };

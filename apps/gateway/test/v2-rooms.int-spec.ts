import { DataSource } from 'typeorm';
import { EventCapture, Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/);
const VERSION = expect.stringMatching(/^[0-9A-F]{8}$/);

const errorOf = (res: V1Response) => ({ status: res.status, code: res.json.error.code, type: res.json.error.type, message: res.json.error.message });
const bad = (message: string | RegExp) => ({ status: 400, code: 400, type: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });

describe('v2 rooms: create, list, get, update, delete, topic (real services)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let db: DataSource;
  let s: V2Session;
  let n = 0;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });
  const unique = (name: string) => `${name} ${n++}`;

  const create = async (body: Record<string, unknown>, token = s.token): Promise<number> => {
    const res = await v2(stack.baseUrl, 'POST', 'room', { token, body });
    if (res.status !== 201) throw new Error(`POST /v2/room answered ${res.status}: ${res.text}`);
    return res.json.id as number;
  };
  const show = async (room: number | string) => {
    const res = await call('GET', `room/${encodeURIComponent(String(room))}`);
    expect(res.status).toBe(200);
    return res.json;
  };
  const versionOf = async (id: number): Promise<string> => (await db.query('SELECT version FROM rooms WHERE id = $1', [id]))[0].version;

  /** The Room object as the specification lists its fields. */
  const roomObject = (id: number, name: string, privacy: 'public' | 'private', isArchived: boolean, version: string) => ({
    id,
    is_archived: isArchived,
    links: {
      self: `${BASE}/v2/room/${id}`,
      participants: `${BASE}/v2/room/${id}/participant`,
      webhooks: `${BASE}/v2/room/${id}/webhook`,
      ...(privacy === 'private' ? { members: `${BASE}/v2/room/${id}/member` } : {}),
    },
    name,
    privacy,
    version,
  });

  /** The User object as the specification lists its fields, read from the database. */
  const userObject = async (id: number) => {
    const [u] = await db.query('SELECT name, mention_name, version FROM users WHERE id = $1', [id]);
    return { id, links: { self: `${BASE}/v2/user/${id}` }, mention_name: u.mention_name, name: u.name, version: u.version };
  };
  const ofRoom = (id: number) => (e: { payload: any }) => e.payload.room.id === id;

  beforeAll(async () => {
    // This suite makes more requests than the default limit of one token allows.
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', PUBLIC_BASE_URL: BASE }, rooms: { PUBLIC_BASE_URL: BASE } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  describe('authentication and scopes', () => {
    let room: number;
    beforeAll(async () => {
      room = await create({ name: 'Guarded Room' });
    });
    const routes = (id: number): Array<[string, string, unknown]> => [
      ['POST', 'room', { name: 'Never Made' }],
      ['GET', 'room', undefined],
      ['GET', `room/${id}`, undefined],
      ['PUT', `room/${id}`, { name: 'Never Renamed', is_archived: true }],
      ['DELETE', `room/${id}`, undefined],
      ['PUT', `room/${id}/topic`, { topic: 'Never set' }],
      ['GET', `room/${id}/statistics`, undefined],
    ];

    it('answers 401 without a token on every operation, and changes nothing', async () => {
      for (const [verb, path, body] of routes(room)) {
        const res = await v2(stack.baseUrl, verb, path, { body });
        expect([verb, path, errorOf(res)]).toEqual([verb, path, expect.objectContaining({ status: 401, code: 401, type: 'Unauthorized' })]);
      }
      expect(await show(room)).toMatchObject({ name: 'Guarded Room', topic: '', is_archived: false });
    });

    it('answers 403 naming the scopes the operation needs', async () => {
      const viewer = await s.personalToken(s.adminId, ['view_group', 'view_room', 'view_messages', 'send_notification', 'send_message']);
      const admin = await s.personalToken(s.adminId, ['admin_room', 'admin_group', 'send_notification']);
      const cases: Array<[string, string, unknown, string, RegExp]> = [
        ['POST', 'room', { name: 'Never Made' }, viewer, /the scope manage_rooms/],
        ['POST', 'room', { name: 'Never Made' }, admin, /the scope manage_rooms/],
        ['GET', 'room', undefined, admin, /one of the scopes view_group, view_room/],
        ['GET', `room/${room}`, undefined, admin, /one of the scopes view_group, view_room/],
        ['GET', `room/${room}/statistics`, undefined, admin, /one of the scopes view_group, view_room/],
        ['PUT', `room/${room}`, { name: 'Never Renamed' }, viewer, /one of the scopes admin_room, manage_rooms/],
        ['DELETE', `room/${room}`, undefined, viewer, /one of the scopes admin_room, manage_rooms/],
        ['PUT', `room/${room}/topic`, { topic: 'Never set' }, viewer, /one of the scopes admin_room, manage_rooms/],
      ];
      for (const [verb, path, body, token, scopes] of cases) {
        const res = await v2(stack.baseUrl, verb, path, { token, body });
        expect([verb, path, errorOf(res)]).toEqual([verb, path, { status: 403, code: 403, type: 'Forbidden', message: expect.stringMatching(scopes) }]);
      }
      expect(await show(room)).toMatchObject({ name: 'Guarded Room', topic: '', is_archived: false });
    });

    it('refuses room tokens (send_notification only) on every operation with 403', async () => {
      const token = await stack.createToken('room', 'rooms room bot', { room: String(room) });
      for (const [verb, path, body] of routes(room)) {
        const res = await v2(stack.baseUrl, verb, path, { token, body });
        expect([verb, path, res.status, res.json.error.type]).toEqual([verb, path, 403, 'Forbidden']);
      }
    });

    it('accepts either scope of each operation', async () => {
      for (const scope of ['view_group', 'view_room']) {
        const token = await s.personalToken(s.adminId, [scope]);
        expect((await v2(stack.baseUrl, 'GET', 'room', { token })).status).toBe(200);
        expect((await v2(stack.baseUrl, 'GET', `room/${room}`, { token })).status).toBe(200);
        expect((await v2(stack.baseUrl, 'GET', `room/${room}/statistics`, { token })).status).toBe(200);
      }
      for (const scope of ['admin_room', 'manage_rooms']) {
        const token = await s.personalToken(s.adminId, [scope]);
        expect((await v2(stack.baseUrl, 'PUT', `room/${room}/topic`, { token, body: { topic: `by ${scope}` } })).status).toBe(204);
        expect((await v2(stack.baseUrl, 'PUT', `room/${room}`, { token, body: { topic: `put by ${scope}` } })).status).toBe(204);
      }
      const deleter = await s.personalToken(s.adminId, ['admin_room']);
      const doomed = await create({ name: unique('Doomed') });
      expect((await v2(stack.baseUrl, 'DELETE', `room/${doomed}`, { token: deleter })).status).toBe(204);
    });
  });

  describe('POST /v2/room', () => {
    it('creates a public room owned by the token\'s user: 201 {id, links.self}, and room_created', async () => {
      const res = await call('POST', 'room', { body: { name: 'Created Room' } });
      expect(res.status).toBe(201);
      const id = res.json.id;
      expect(res.json).toEqual({ id: expect.any(Number), links: { self: `${BASE}/v2/room/${id}` } });
      const room = await show(id);
      expect(room).toMatchObject({
        id, name: 'Created Room', topic: '', privacy: 'public', is_archived: false, is_guest_accessible: false,
        guest_access_url: null, owner: { id: s.adminId },
      });
      const event = await capture.waitFor('room.created.v2', ofRoom(id));
      expect(event.payload).toEqual({
        room: roomObject(id, 'Created Room', 'public', false, room.version),
        sender: await userObject(s.adminId),
      });
      expect(event.payload.room.links).not.toHaveProperty('members');
    });

    it('creates a private room with a topic, guest access and an owner named by e-mail address', async () => {
      const ownerEmail = `owner${n++}@example.com`;
      const owner = await s.createUser('Private Owner', ownerEmail);
      const id = await create({ name: 'Private Created', privacy: 'private', topic: 'Hush', owner_user_id: ownerEmail, guest_access: true });
      const room = await show(id);
      expect(room).toMatchObject({
        name: 'Private Created', privacy: 'private', topic: 'Hush', is_guest_accessible: true,
        guest_access_url: expect.stringMatching(new RegExp(`^${BASE}/g/[0-9a-f]{32}$`)), owner: { id: owner },
        links: { members: `${BASE}/v2/room/${id}/member` },
      });
      const event = await capture.waitFor('room.created.v2', ofRoom(id));
      // The sender is who created it (the token's user), not the owner it was created for.
      expect(event.payload).toEqual({
        room: roomObject(id, 'Private Created', 'private', false, room.version),
        sender: await userObject(s.adminId),
      });
      // The owner is a member of the private room.
      expect(await db.query('SELECT user_id FROM room_members WHERE room_id = $1', [id])).toEqual([{ user_id: owner }]);
    });

    it('takes the owner as a number, as digits, and form-encoded bodies', async () => {
      const owner = await s.createUser('Numbered Owner');
      expect((await show(await create({ name: unique('Owner By Id'), owner_user_id: owner }))).owner.id).toBe(owner);
      expect((await show(await create({ name: unique('Owner By Digits'), owner_user_id: String(owner) }))).owner.id).toBe(owner);
      const name = unique('Form Room');
      const res = await call('POST', 'room', {
        body: new URLSearchParams({ name, privacy: 'private', guest_access: '1', owner_user_id: String(owner) }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(201);
      expect(await show(res.json.id)).toMatchObject({ name, privacy: 'private', is_guest_accessible: true, owner: { id: owner } });
    });

    it('ignores fields it does not know', async () => {
      const name = unique('Tolerant Room');
      const res = await call('POST', 'room', { body: { name, token: 'abc', delegate_admin_visibility: true, whatever: { a: 1 } } });
      expect(res.status).toBe(201);
      expect(await show(res.json.id)).toMatchObject({ name, privacy: 'public' });
    });

    it('answers 400 "Another room exists with that name." for a taken name, whatever its case', async () => {
      await create({ name: 'Taken Name' });
      for (const name of ['Taken Name', 'TAKEN name']) {
        expect(errorOf(await call('POST', 'room', { body: { name } }))).toEqual(bad('Another room exists with that name.'));
      }
    });

    it('answers 400 naming the field that breaks its rule, and creates nothing', async () => {
      const before = Number((await db.query('SELECT count(*) AS c FROM rooms'))[0].c);
      const cases: Array<[unknown, string | RegExp]> = [
        [{}, 'name: is required'],
        [{ name: '' }, 'name: must not be empty'],
        [{ name: 'x'.repeat(51) }, 'name: must be at most 50 characters (got 51)'],
        [{ name: 42 }, 'name: must be text (got number)'],
        [{ name: '4242' }, /^name: must not be only digits/],
        [{ name: 'Bad Privacy', privacy: 'secret' }, 'privacy: must be one of public, private (got "secret")'],
        [{ name: 'Bad Topic', topic: '<b>bold</b>' }, 'topic: must not contain HTML'],
        [{ name: 'Bad Topic', topic: 't'.repeat(251) }, 'topic: must be at most 250 characters (got 251)'],
        [{ name: 'Bad Guests', guest_access: 'maybe' }, /^guest_access: must be true or false/],
        [{ name: 'Bad Owner', owner_user_id: 'not an address' }, /^owner_user_id: must be a user ID or an e-mail address/],
        [{ name: 'Bad Owner', owner_user_id: 999999 }, 'owner_user_id: user 999999 not found'],
        [{ name: 'Bad Owner', owner_user_id: 'nobody@example.com' }, 'owner_user_id: user nobody@example.com not found'],
        ['[1, 2]', 'The request body must be a JSON object.'],
      ];
      for (const [body, message] of cases) {
        expect([body, errorOf(await call('POST', 'room', { body }))]).toEqual([body, bad(message)]);
      }
      expect(Number((await db.query('SELECT count(*) AS c FROM rooms'))[0].c)).toBe(before);
    });
  });

  describe('GET /v2/room/{room}', () => {
    it('shows the whole room by id and by name, with its owner and participants as User objects', async () => {
      const id = await create({ name: 'Shown Room', topic: 'On display' });
      const byId = await show(id);
      expect(await show('Shown Room')).toEqual(byId);
      expect(await show('shown ROOM')).toEqual(byId);
      expect(byId).toEqual({
        id,
        name: 'Shown Room',
        topic: 'On display',
        privacy: 'public',
        is_archived: false,
        is_guest_accessible: false,
        guest_access_url: null,
        created: ISO,
        last_active: null,
        owner: { id: s.adminId, name: 'Group Admin', mention_name: expect.any(String), version: VERSION, links: { self: `${BASE}/v2/user/${s.adminId}` } },
        participants: [],
        statistics: { links: { self: `${BASE}/v2/room/${id}/statistics` } },
        xmpp_jid: expect.stringMatching(/^1_shown_room@/),
        version: await versionOf(id),
        delegate_admin_visibility: null,
        avatar_url: null,
        links: { self: `${BASE}/v2/room/${id}`, webhooks: `${BASE}/v2/room/${id}/webhook`, participants: `${BASE}/v2/room/${id}/participant` },
      });
      expect(Math.abs(Date.parse(byId.created) - Date.now())).toBeLessThan(60_000);
      const owner = await userObject(s.adminId);
      expect(byId.owner).toEqual(owner);

      // Who is in the room now, in the order they entered; last_active from the newest message.
      const guest = await s.createUser('Present Person');
      await db.query(`INSERT INTO room_participants (room_id, user_id, entered_at) VALUES ($1, $2, now() - interval '1 minute'), ($1, $3, now())`, [id, guest, s.adminId]);
      expect((await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: s.v1Admin, room_id: id, from: 'Bot', message: 'hello' })).status).toBe(200);
      const later = await show(id);
      expect(later.participants).toEqual([await userObject(guest), owner]);
      expect(later.last_active).toEqual(ISO);
      // v1 rooms/show names the same participants.
      const shown = (await v1(stack.baseUrl, 'GET', 'rooms/show', { auth_token: s.v1Admin, room_id: id })).json.room;
      expect(shown.participants).toEqual([{ user_id: guest, name: 'Present Person' }, { user_id: s.adminId, name: 'Group Admin' }]);
    });

    it('links the members of a private room', async () => {
      const id = await create({ name: unique('Shown Private'), privacy: 'private' });
      expect((await show(id)).links).toEqual({
        self: `${BASE}/v2/room/${id}`, webhooks: `${BASE}/v2/room/${id}/webhook`,
        participants: `${BASE}/v2/room/${id}/participant`, members: `${BASE}/v2/room/${id}/member`,
      });
    });

    it('answers 404 "Room <id or name> not found" for an unknown room', async () => {
      expect(errorOf(await call('GET', 'room/999999'))).toEqual({ status: 404, code: 404, type: 'Not Found', message: 'Room 999999 not found' });
      expect(errorOf(await call('GET', `room/${encodeURIComponent('No Such Room')}`)))
        .toEqual({ status: 404, code: 404, type: 'Not Found', message: 'Room No Such Room not found' });
    });

    it('answers a path no v2 operation serves in the v2 error shape: JSON whatever `format` says, no v1 headers', async () => {
      const route = await call('GET', 'room/999999');
      for (const [verb, path] of [['GET', 'nothing'], ['POST', 'room/1/nothing/at/all'], ['GET', 'NOTHING?format=xml']]) {
        const res = await call(verb, path, { tokenInQuery: true, query: { format: 'xml' } });
        expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 404, type: route.headers.get('content-type') });
        expect(res.text).toBe(JSON.stringify({ error: { code: 404, type: 'Not Found', message: 'Not found. The version 2 API\'s operations are listed at /docs/api/v2.' } }));
        // No token was counted for it (v1 answers every path with its idle counts).
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
      const upper = await fetch(`${stack.baseUrl}/V2/nothing`);
      expect([upper.status, upper.headers.get('content-type'), await upper.text()])
        .toEqual([404, route.headers.get('content-type'), JSON.stringify({ error: { code: 404, type: 'Not Found', message: 'Not found. The version 2 API\'s operations are listed at /docs/api/v2.' } })]);
    });

    describe('a path served under other methods', () => {
      let name: string;
      beforeAll(async () => {
        name = unique('Wrong Verbs');
        await create({ name });
      });
      const enc = () => encodeURIComponent(name);
      const notAllowed = (res: V1Response) => ({
        status: res.status, allow: res.headers.get('allow'), body: res.json, rateLimit: res.headers.get('x-ratelimit-limit'),
      });
      const expected = (verb: string, path: string, allow: string) => ({
        status: 405,
        allow,
        body: { error: { code: 405, type: 'Method Not Allowed', message: `${verb} is not allowed on /v2/${path}: it takes ${allow}.` } },
        // Like the 404, answered before any token is read: nothing counted.
        rateLimit: null,
      });

      it('answers 405 in the v2 error body, naming the methods in the message and in Allow', async () => {
        const cases: Array<[string, string, string]> = [
          ['PATCH', `room/${enc()}`, 'GET, HEAD, PUT, DELETE, OPTIONS'],
          ['POST', `room/${enc()}`, 'GET, HEAD, PUT, DELETE, OPTIONS'],
          ['PUT', 'room', 'GET, HEAD, POST, OPTIONS'],
          ['GET', 'room/Ops/notification', 'POST, OPTIONS'],
          ['DELETE', 'room/42/topic', 'PUT, OPTIONS'],
          ['PATCH', 'user/someone%40example.com', 'GET, HEAD, PUT, DELETE, OPTIONS'],
          ['POST', 'capabilities', 'GET, HEAD, OPTIONS'],
          ['POST', 'room/Ops/webhook/1/delivery', 'GET, HEAD, OPTIONS'],
          ['DELETE', 'room/Ops/webhook/1/delivery/x', 'GET, HEAD, OPTIONS'],
          ['GET', 'room/Ops/webhook/1/recover', 'POST, OPTIONS'],
          ['GET', 'room/Ops/webhook/1/delivery/x/redeliver', 'POST, OPTIONS'],
        ];
        for (const [verb, path, allow] of cases) {
          expect([verb, path, notAllowed(await call(verb, path, { body: verb === 'GET' ? undefined : {} }))]).toEqual([verb, path, expected(verb, path, allow)]);
        }
      });

      it('whatever the token, its place, the case of the path, a trailing slash or the query string', async () => {
        expect(notAllowed(await v2(stack.baseUrl, 'PATCH', `room/${enc()}`))).toEqual(expected('PATCH', `room/${enc()}`, 'GET, HEAD, PUT, DELETE, OPTIONS'));
        const inQuery = await call('GET', 'room/Ops/notification', { tokenInQuery: true, query: { format: 'xml' } });
        expect(notAllowed(inQuery)).toEqual(expected('GET', 'room/Ops/notification', 'POST, OPTIONS'));
        const upper = await fetch(`${stack.baseUrl}/V2/ROOM/`, { method: 'PUT', headers: { authorization: `Bearer ${s.token}` } });
        expect([upper.status, upper.headers.get('allow'), (await upper.json()).error.message])
          .toEqual([405, 'GET, HEAD, POST, OPTIONS', 'PUT is not allowed on /V2/ROOM/: it takes GET, HEAD, POST, OPTIONS.']);
      });

      it('answers HEAD of a path without GET 405, and HEAD of a GET path as GET', async () => {
        const head = await call('HEAD', 'room/Ops/notification');
        expect([head.status, head.headers.get('allow'), head.text]).toEqual([405, 'POST, OPTIONS', '']);
        const served = await call('HEAD', `room/${enc()}`);
        expect([served.status, served.text]).toEqual([200, '']);
      });

      it('answers OPTIONS 204 with the same Allow, and 404 for a path no route serves', async () => {
        for (const [path, allow] of [[`room/${enc()}`, 'GET, HEAD, PUT, DELETE, OPTIONS'], ['room/Ops/webhook/1/delivery/x', 'GET, HEAD, OPTIONS']]) {
          const res = await call('OPTIONS', path);
          expect([path, res.status, res.headers.get('allow'), res.text]).toEqual([path, 204, allow, '']);
        }
        const unknown = await call('OPTIONS', 'room/Ops/nothing');
        expect([unknown.status, unknown.headers.get('allow'), unknown.json.error.code]).toEqual([404, null, 404]);
      });

      it('still answers 404 where no route matches the path, under any method', async () => {
        for (const [verb, path] of [['PATCH', 'nothing'], ['GET', 'room/Ops/webhook/1/delivery/x/y'], ['POST', 'room/Ops/webhooks'], ['PUT', 'room/Ops/webhook/1/recover/now']]) {
          const res = await call(verb, path, { body: verb === 'GET' ? undefined : {} });
          expect([verb, path, res.status, res.headers.get('allow'), res.json.error.message])
            .toEqual([verb, path, 404, null, 'Not found. The version 2 API\'s operations are listed at /docs/api/v2.']);
        }
      });

      it('still serves each path under its own methods', async () => {
        expect((await show(name)).name).toBe(name);
        expect((await call('PUT', `room/${enc()}/topic`, { body: { topic: 'Verbs' } })).status).toBe(204);
        expect((await call('POST', `room/${enc()}/notification`, { body: { message: 'right verb' } })).status).toBe(204);
        // The delivery log's own answer: no such webhook (not a 405).
        expect(errorOf(await call('GET', `room/${enc()}/webhook/999999/delivery`))).toMatchObject({ status: 404, message: 'Webhook 999999 not found' });
        expect(errorOf(await call('POST', `room/${enc()}/webhook/999999/recover`, { body: { since: '2026-01-01T00:00:00Z' } }))).toMatchObject({ status: 404, message: 'Webhook 999999 not found' });
      });
    });

    it('shows a private room to its members and group admins only', async () => {
      const member = await s.createUser('Private Member');
      const outsider = await s.createUser('Private Outsider');
      const id = await create({ name: unique('Members Only'), privacy: 'private', owner_user_id: member });
      const mine = await s.personalToken(member, ['view_group']);
      const theirs = await s.personalToken(outsider, ['view_group']);
      expect((await v2(stack.baseUrl, 'GET', `room/${id}`, { token: mine })).status).toBe(200);
      expect(errorOf(await v2(stack.baseUrl, 'GET', `room/${id}`, { token: theirs }))).toMatchObject({ status: 404, message: `Room ${id} not found` });
      const listed = async (token: string) => (await v2(stack.baseUrl, 'GET', 'room', { token, query: { 'max-results': 1000 } })).json.items.map((r: { id: number }) => r.id);
      expect(await listed(mine)).toContain(id);
      expect(await listed(theirs)).not.toContain(id);
      expect(await listed(s.token)).toContain(id);
    });
  });

  describe('GET /v2/room/{room}/statistics', () => {
    const statistics = (room: number | string, token = s.token) => v2(stack.baseUrl, 'GET', `room/${encodeURIComponent(String(room))}/statistics`, { token });
    const statisticsOf = (id: number, sent: number, lastActive: unknown) =>
      ({ messages_sent: sent, last_active: lastActive, links: { self: `${BASE}/v2/room/${id}/statistics` } });

    it('counts the messages and notifications posted to a room named with spaces, and its last activity as the room shows it', async () => {
      const name = unique('Busy Stats Room');
      const id = await create({ name });
      const empty = await statistics(name);
      expect([empty.status, empty.json]).toEqual([200, statisticsOf(id, 0, null)]);

      // A user's message answers 201 with its id, a notification 204.
      const post = async (path: string, body: Record<string, unknown>) => {
        const res = await call('POST', `room/${encodeURIComponent(name)}/${path}`, { body });
        expect([path, res.status]).toEqual([path, path === 'message' ? 201 : 204]);
      };
      await post('message', { message: 'first' });
      await post('message', { message: 'second' });
      await post('notification', { message: 'deployed', color: 'green' });
      await post('notification', { message: 'rolled back', color: 'red', notify: true });
      // v1 rooms/message is a notification too.
      expect((await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: s.v1Admin, room_id: name, from: 'Bot', message: 'v1 hello' })).status).toBe(200);
      // A topic change is no message.
      expect((await call('PUT', `room/${id}/topic`, { body: { topic: 'Busy' } })).status).toBe(204);

      const [{ newest }] = await db.query('SELECT max(created_at) AS newest FROM messages WHERE room_id = $1', [id]);
      const room = await show(id);
      expect(room.last_active).toBe(newest.toISOString());
      const expected = statisticsOf(id, 5, room.last_active);
      // By name (spaces, any case) and by id: one answer, linked by id.
      for (const ref of [name, name.toUpperCase(), id]) {
        const res = await statistics(ref);
        expect([ref, res.status, res.json]).toEqual([ref, 200, expected]);
      }
    });

    it('answers at the link the room record gives', async () => {
      const id = await create({ name: unique('Linked Stats Room') });
      const link: string = (await show(id)).statistics.links.self;
      expect(link.startsWith(`${BASE}/v2/`)).toBe(true);
      const res = await call('GET', link.slice(`${BASE}/v2/`.length));
      expect([res.status, res.json]).toEqual([200, statisticsOf(id, 0, null)]);
      expect(res.json.links.self).toBe(link);
    });

    it('answers 404 "Room <id or name> not found" for an unknown room', async () => {
      for (const ref of ['999999', 'No Such Stats Room']) {
        const res = await statistics(ref);
        expect([res.status, res.json]).toEqual([404, { error: { code: 404, type: 'Not Found', message: `Room ${ref} not found` } }]);
      }
    });

    it('shows a private room\'s statistics to its members and group admins only', async () => {
      const member = await s.createUser('Stats Member');
      const outsider = await s.createUser('Stats Outsider');
      const name = unique('Private Stats');
      const id = await create({ name, privacy: 'private', owner_user_id: member });
      expect((await call('POST', `room/${id}/notification`, { body: { message: 'for members' } })).status).toBe(204);
      const lastActive = (await show(id)).last_active;
      expect(lastActive).toEqual(ISO);

      const mine = await s.personalToken(member, ['view_room']);
      const theirs = await s.personalToken(outsider, ['view_group']);
      for (const token of [mine, s.token]) {
        const res = await statistics(id, token);
        expect([res.status, res.json]).toEqual([200, statisticsOf(id, 1, lastActive)]);
      }
      for (const ref of [id, name]) {
        const res = await statistics(ref, theirs);
        // As if it did not exist: only the reference sent is named (room-access.ts, roomNotFound).
        expect([ref, res.status, res.json]).toEqual([ref, 404, { error: { code: 404, type: 'Not Found', message: `Room ${ref} not found` } }]);
      }
    });
  });

  describe('GET /v2/room', () => {
    const list = async (query: Record<string, string | number> = {}) => {
      const res = await call('GET', 'room', { query });
      expect(res.status).toBe(200);
      return res.json;
    };

    it('lists rooms by id with their Room object fields, private rooms included, archived ones not', async () => {
      const pub = await create({ name: unique('Listed Public') });
      const priv = await create({ name: unique('Listed Private'), privacy: 'private' });
      const archived = await create({ name: unique('Listed Archived') });
      expect((await call('PUT', `room/${archived}`, { body: { is_archived: true } })).status).toBe(204);

      const all = await list({ 'max-results': 1000 });
      expect(Object.keys(all).sort()).toEqual(['items', 'links', 'maxResults', 'startIndex']);
      expect(all).toMatchObject({ startIndex: 0, maxResults: 1000, links: { self: `${BASE}/v2/room` } });
      const ids = all.items.map((r: { id: number }) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const itemOf = (id: number) => all.items.find((r: { id: number }) => r.id === id);
      const pubRoom = await show(pub);
      expect(itemOf(pub)).toEqual({
        id: pub, name: pubRoom.name, privacy: 'public', is_archived: false, version: pubRoom.version,
        links: { self: `${BASE}/v2/room/${pub}`, webhooks: `${BASE}/v2/room/${pub}/webhook`, participants: `${BASE}/v2/room/${pub}/participant` },
      });
      expect(itemOf(priv)).toMatchObject({ privacy: 'private', links: { members: `${BASE}/v2/room/${priv}/member` } });
      expect(ids).not.toContain(archived);

      const withArchived = (await list({ 'max-results': 1000, 'include-archived': 'true' })).items;
      expect(withArchived.find((r: { id: number }) => r.id === archived)).toMatchObject({ is_archived: true });
      const publicOnly = (await list({ 'max-results': 1000, 'include-private': 'false' })).items;
      expect(publicOnly.map((r: { id: number }) => r.id)).toContain(pub);
      expect(publicOnly.every((r: { privacy: string }) => r.privacy === 'public')).toBe(true);
      expect(publicOnly.map((r: { id: number }) => r.id)).not.toContain(priv);
    });

    it('pages with start-index and max-results, linking next and prev and keeping the other parameters', async () => {
      for (let i = 0; i < 5; i++) await create({ name: unique('Paged') });
      const all = (await list({ 'max-results': 1000, 'include-archived': 'true' })).items.map((r: { id: number }) => r.id);
      expect(all.length).toBeGreaterThanOrEqual(5);

      const first = await list({ 'max-results': 2, 'include-archived': 'true' });
      expect(first.items.map((r: { id: number }) => r.id)).toEqual(all.slice(0, 2));
      expect(first).toMatchObject({ startIndex: 0, maxResults: 2 });
      expect(first.links).toEqual({ self: `${BASE}/v2/room`, next: `${BASE}/v2/room?include-archived=true&start-index=2&max-results=2` });

      const second = await list({ 'start-index': 2, 'max-results': 2, 'include-archived': 'true' });
      expect(second.items.map((r: { id: number }) => r.id)).toEqual(all.slice(2, 4));
      expect(second.links).toEqual({
        self: `${BASE}/v2/room`,
        prev: `${BASE}/v2/room?include-archived=true&start-index=0&max-results=2`,
        next: `${BASE}/v2/room?include-archived=true&start-index=4&max-results=2`,
      });

      const last = await list({ 'start-index': all.length - 1, 'max-results': 2, 'include-archived': 'true' });
      expect(last.items.map((r: { id: number }) => r.id)).toEqual(all.slice(-1));
      expect(last.links).not.toHaveProperty('next');
      expect(last.links.prev).toBe(`${BASE}/v2/room?include-archived=true&start-index=${all.length - 3}&max-results=2`);

      const past = await list({ 'start-index': all.length + 10 });
      expect(past.items).toEqual([]);
      expect(past.links).not.toHaveProperty('next');
    });

    it('answers 400 naming a bad paging or filter parameter', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ 'max-results': '1001' }, 'max-results: must be a whole number from 0 to 1000 (got "1001")'],
        [{ 'max-results': '-1' }, 'max-results: must be a whole number from 0 to 1000 (got "-1")'],
        [{ 'start-index': 'x' }, 'start-index: must be a whole number from 0 to 2147483647 (got "x")'],
        [{ 'include-private': 'maybe' }, 'include-private: must be true or false (got "maybe")'],
        [{ 'include-archived': 'perhaps' }, 'include-archived: must be true or false (got "perhaps")'],
      ];
      for (const [query, message] of cases) {
        expect([query, errorOf(await call('GET', 'room', { query }))]).toEqual([query, bad(message)]);
      }
    });
  });

  describe('PUT /v2/room/{room}', () => {
    it('changes only the fields given, ignores unknown ones, and gives the room a new version on every change', async () => {
      const id = await create({ name: 'Updated Room', topic: 'Original' });
      const versions = [(await show(id)).version];
      const put = async (body: unknown) => {
        const res = await call('PUT', `room/${id}`, { body });
        expect([body, res.status, res.text]).toEqual([body, 204, '']);
        return show(id);
      };

      let room = await put({ privacy: 'private', is_guest_accessible: true, links: { self: 'x' }, id: 1, created: 'yesterday', token: 'abc' });
      expect(room).toMatchObject({
        name: 'Updated Room', topic: 'Original', privacy: 'private', is_archived: false, is_guest_accessible: true,
        guest_access_url: expect.stringMatching(/\/g\/[0-9a-f]{32}$/), owner: { id: s.adminId },
        links: { members: `${BASE}/v2/room/${id}/member` },
      });
      versions.push(room.version);
      const guestUrl = room.guest_access_url;

      room = await put({ name: 'Renamed Room', is_guest_accessible: true });
      expect(room).toMatchObject({ name: 'Renamed Room', privacy: 'private', guest_access_url: guestUrl, xmpp_jid: expect.stringMatching(/^1_renamed_room@/) });
      versions.push(room.version);
      expect(errorOf(await call('GET', 'room/Updated%20Room')).status).toBe(404);

      room = await put({ name: 'renamed room' });
      expect(room.name).toBe('renamed room');
      versions.push(room.version);

      const newOwnerEmail = `newowner${n++}@example.com`;
      const newOwner = await s.createUser('New Owner', newOwnerEmail);
      room = await put({ owner: { id: newOwnerEmail, name: 'whatever', links: {} } });
      expect(room.owner.id).toBe(newOwner);
      versions.push(room.version);
      // The owner of a private room may enter it.
      expect((await db.query('SELECT user_id FROM room_members WHERE room_id = $1 ORDER BY user_id', [id])).map((r: { user_id: number }) => r.user_id))
        .toEqual([s.adminId, newOwner].sort((a, b) => a - b));

      room = await put({ owner_user_id: s.adminId, privacy: 'public', is_guest_accessible: false });
      expect(room).toMatchObject({ owner: { id: s.adminId }, privacy: 'public', is_guest_accessible: false, guest_access_url: null });
      expect(room.links).not.toHaveProperty('members');
      versions.push(room.version);

      room = await put({ topic: '' });
      expect(room.topic).toBe('');
      versions.push(room.version);

      expect(new Set(versions).size).toBe(versions.length);
      for (const v of versions) expect(v).toEqual(VERSION);

      // The same values again (and an empty body) change nothing: the version stays.
      room = await put({ name: 'renamed room', privacy: 'public', topic: '', is_archived: false, is_guest_accessible: false, owner: { id: s.adminId } });
      expect(room.version).toBe(versions[versions.length - 1]);
      expect((await put({})).version).toBe(versions[versions.length - 1]);
    });

    it('archives (room_archived) and unarchives (room_unarchived); an archived room refuses messages but can be renamed and deleted', async () => {
      const id = await create({ name: 'Archivable Room' });
      const created = await capture.waitFor('room.created.v2', ofRoom(id));
      const sender = await userObject(s.adminId);

      expect((await call('PUT', `room/${id}`, { body: { is_archived: true } })).status).toBe(204);
      const archived = await show(id);
      expect(archived).toMatchObject({ is_archived: true });
      expect(archived.version).not.toBe(created.payload.room.version);
      const archivedEvent = await capture.waitFor('room.archived.v2', ofRoom(id));
      expect(archivedEvent.payload).toEqual({ room: roomObject(id, 'Archivable Room', 'public', true, archived.version), sender });

      // Archived: messages and notifications are refused with 400.
      const notification = await call('POST', `room/${id}/notification`, { body: { message: 'nobody hears this' } });
      expect(errorOf(notification)).toEqual(bad(/Archivable Room is archived/));
      expect(errorOf(await call('POST', `room/${id}/message`, { body: { message: 'nor this' } }))).toEqual(bad(/Archivable Room is archived/));
      const v1Send = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: s.v1Admin, room_id: id, from: 'Bot', message: 'nor v1' });
      expect(v1Send.status).toBe(400);

      // Still renamed, and its topic changed, while archived.
      expect((await call('PUT', `room/${id}`, { body: { name: 'Archived Renamed', is_archived: true } })).status).toBe(204);
      expect((await call('PUT', `room/${id}/topic`, { body: { topic: 'Archived topic' } })).status).toBe(204);
      expect(await show(id)).toMatchObject({ name: 'Archived Renamed', topic: 'Archived topic', is_archived: true });
      expect(capture.of('room.archived.v2', ofRoom(id))).toHaveLength(1);

      expect((await call('PUT', `room/${id}`, { body: { is_archived: false } })).status).toBe(204);
      const unarchived = await show(id);
      const unarchivedEvent = await capture.waitFor('room.unarchived.v2', ofRoom(id));
      expect(unarchivedEvent.payload).toEqual({ room: roomObject(id, 'Archived Renamed', 'public', false, unarchived.version), sender });
      expect((await call('POST', `room/${id}/notification`, { body: { message: 'heard again' } })).status).toBe(204);

      // Archived again, then deleted.
      expect((await call('PUT', `room/${id}`, { body: { is_archived: 'true' } })).status).toBe(204);
      await capture.waitFor('room.archived.v2', (e) => e.payload.room.id === id && e.payload.room.name === 'Archived Renamed');
      expect((await call('DELETE', `room/${id}`)).status).toBe(204);
      const deleted = await capture.waitFor('room.deleted.v2', ofRoom(id));
      expect(deleted.payload.room).toMatchObject({ id, is_archived: true, name: 'Archived Renamed' });
    });

    it('announces a new topic with room_topic_change, with the room as it is after the update', async () => {
      const id = await create({ name: 'Put Topic Room', topic: 'Before' });
      expect((await call('PUT', `room/${id}`, { body: { topic: 'After', name: 'Put Topic Renamed' } })).status).toBe(204);
      const room = await show(id);
      const event = await capture.waitFor('room.topic-changed.v2', ofRoom(id));
      expect(event.payload).toEqual({
        room: roomObject(id, 'Put Topic Renamed', 'public', false, room.version),
        sender: await userObject(s.adminId),
        topic: 'After',
      });
      // Changes that are not archival or topic announce nothing.
      expect((await call('PUT', `room/${id}`, { body: { name: 'Quietly Renamed' } })).status).toBe(204);
      expect(capture.of('room.topic-changed.v2', ofRoom(id))).toHaveLength(1);
      expect(capture.of('room.archived.v2', ofRoom(id))).toHaveLength(0);
    });

    it('answers 400 "Another room exists with that name." when renaming to a taken name', async () => {
      await create({ name: 'Occupied Name' });
      const id = await create({ name: 'Wants Rename' });
      expect(errorOf(await call('PUT', `room/${id}`, { body: { name: 'OCCUPIED NAME', topic: 'not applied' } }))).toEqual(bad('Another room exists with that name.'));
      expect(await show(id)).toMatchObject({ name: 'Wants Rename', topic: '' });
    });

    it('answers 404 for an unknown room and 400 naming a bad field, changing nothing', async () => {
      expect(errorOf(await call('PUT', 'room/999999', { body: { topic: 'x' } }))).toEqual({ status: 404, code: 404, type: 'Not Found', message: 'Room 999999 not found' });
      expect(errorOf(await call('PUT', 'room/No%20Such%20Room', { body: { topic: 'x' } }))).toMatchObject({ status: 404, message: 'Room No Such Room not found' });
      const id = await create({ name: 'Strict Room' });
      const version = (await show(id)).version;
      const cases: Array<[unknown, string | RegExp]> = [
        [{ name: '' }, 'name: must not be empty'],
        [{ name: 'y'.repeat(51) }, 'name: must be at most 50 characters (got 51)'],
        [{ privacy: 'hidden' }, 'privacy: must be one of public, private (got "hidden")'],
        [{ topic: '<i>x</i>' }, 'topic: must not contain HTML'],
        [{ is_archived: 'maybe' }, /^is_archived: must be true or false/],
        [{ is_guest_accessible: 3 }, /^is_guest_accessible: must be true or false/],
        [{ owner: { id: 'not a user' } }, /^owner\.id: must be a user ID or an e-mail address/],
        // Named as the client sent it: `owner.id` (or `owner` alone) here, `owner_user_id` there.
        [{ owner: { id: 999999 } }, 'owner.id: user 999999 not found'],
        [{ owner: { id: 'ghost@example.com', name: 'Ghost' } }, 'owner.id: user ghost@example.com not found'],
        [{ owner: 999999 }, 'owner.id: user 999999 not found'],
        [{ owner_user_id: 999999 }, 'owner_user_id: user 999999 not found'],
        [{ owner_user_id: 'ghost@example.com' }, 'owner_user_id: user ghost@example.com not found'],
        ['"text"', 'The request body must be a JSON object.'],
      ];
      for (const [body, message] of cases) {
        expect([body, errorOf(await call('PUT', `room/${id}`, { body }))]).toEqual([body, bad(message)]);
      }
      expect(await show(id)).toMatchObject({ name: 'Strict Room', version });
    });
  });

  describe('DELETE /v2/room/{room}', () => {
    it('deletes by id or name: 204, room_deleted with the room\'s last state, then 404', async () => {
      const id = await create({ name: 'Deleted Room', privacy: 'private' });
      const last = await show(id);
      const res = await call('DELETE', 'room/deleted%20room');
      expect([res.status, res.text]).toEqual([204, '']);
      const event = await capture.waitFor('room.deleted.v2', ofRoom(id));
      expect(event.payload).toEqual({ room: roomObject(id, 'Deleted Room', 'private', false, last.version), sender: await userObject(s.adminId) });
      expect(errorOf(await call('GET', `room/${id}`))).toMatchObject({ status: 404, message: `Room ${id} not found` });
      expect(errorOf(await call('DELETE', `room/${id}`))).toMatchObject({ status: 404, message: `Room ${id} not found` });
      expect(errorOf(await call('DELETE', 'room/Deleted%20Room'))).toMatchObject({ status: 404, message: 'Room Deleted Room not found' });
      // The name is free again.
      expect(await create({ name: 'Deleted Room' })).toBeGreaterThan(id);
    });
  });

  describe('PUT /v2/room/{room}/topic', () => {
    it('sets the topic: 204, room_topic_change with the token\'s user as sender, and a new version', async () => {
      const id = await create({ name: 'Topic Room', topic: 'Old' });
      const before = (await show(id)).version;
      const res = await call('PUT', 'room/Topic%20Room/topic', { body: { topic: 'New topic', unknown: true } });
      expect([res.status, res.text]).toEqual([204, '']);
      const room = await show(id);
      expect(room.topic).toBe('New topic');
      expect(room.version).not.toBe(before);
      const event = await capture.waitFor('room.topic-changed.v2', ofRoom(id));
      expect(event.payload).toEqual({
        room: roomObject(id, 'Topic Room', 'public', false, room.version),
        sender: await userObject(s.adminId),
        topic: 'New topic',
      });
      // An empty topic clears it.
      expect((await call('PUT', `room/${id}/topic`, { body: { topic: '' } })).status).toBe(204);
      expect((await show(id)).topic).toBe('');
    });

    it('answers 400 naming the topic\'s rule and 404 for an unknown room', async () => {
      const id = await create({ name: 'Topic Rules Room', topic: 'Kept' });
      const cases: Array<[unknown, string]> = [
        [{}, 'topic: is required'],
        [{ topic: null }, 'topic: must be text (got null)'],
        [{ topic: '<script>x</script>' }, 'topic: must not contain HTML'],
        [{ topic: 'z'.repeat(251) }, 'topic: must be at most 250 characters (got 251)'],
      ];
      for (const [body, message] of cases) {
        expect([body, errorOf(await call('PUT', `room/${id}/topic`, { body }))]).toEqual([body, bad(message)]);
      }
      expect((await show(id)).topic).toBe('Kept');
      expect(errorOf(await call('PUT', 'room/999999/topic', { body: { topic: 'x' } }))).toMatchObject({ status: 404, message: 'Room 999999 not found' });
      expect(errorOf(await call('PUT', 'room/Nowhere/topic', { body: { topic: 'x' } }))).toMatchObject({ status: 404, message: 'Room Nowhere not found' });
    });
  });
});

import { DataSource } from 'typeorm';
import { EventCapture, Stack, startStack, v1 } from '../../../test/support/harness';
import { expectError, expectJson } from './gateway-helpers';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const RECORD_KEYS = [
  'id', 'name', 'mention_name', 'email', 'title', 'photo_url', 'last_active', 'created', 'presence', 'timezone',
  'is_group_admin', 'is_guest', 'is_deleted', 'xmpp_jid', 'roles', 'version', 'links',
];

describe('v2 /user and private chat (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let s: V2Session;
  let db: DataSource;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });
  const create = async (body: Record<string, unknown>) => expectJson(await call('POST', 'user', { body }), 201);
  const show = async (ref: string | number) => expectJson(await call('GET', `user/${ref}`), 200);
  const expect204 = (res: { status: number; text: string }) => expect({ status: res.status, body: res.text }).toEqual({ status: 204, body: '' });
  const passwordHash = async (id: number) => (await db.query('SELECT password_hash FROM users WHERE id = $1', [id]))[0].password_hash as string;
  const privateRows = async (to: number) =>
    db.query('SELECT from_user_id, to_user_id, body, message_format FROM private_messages WHERE to_user_id = $1 ORDER BY created_at', [to]);

  beforeAll(async () => {
    stack = await startStack({ gateway: { RATE_LIMIT_MAX: '10000', V2_RATE_LIMIT_MAX: '10000' }, rooms: true });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    s = await v2Session(stack);
    db = stack.rooms!.get(DataSource);
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  describe('authentication and scopes', () => {
    it('answers 401 without a token, on every route', async () => {
      for (const [verb, path] of [['GET', 'user'], ['POST', 'user'], ['GET', 'user/1'], ['PUT', 'user/1'], ['DELETE', 'user/1'],
        ['POST', 'user/1/message'], ['GET', 'user/1/history/latest']]) {
        expectError(await v2(stack.baseUrl, verb, path, { body: verb === 'POST' || verb === 'PUT' ? {} : undefined }), 401, 'Unauthorized');
      }
      expectError(await call('GET', 'user', { token: 'not-a-token' }), 401, 'Unauthorized');
    });

    it('answers 403 naming the scope the operation needs', async () => {
      const viewer = await s.personalToken(s.adminId, ['view_group']);
      const notifier = await s.personalToken(s.adminId, ['send_notification']);
      expectError(await call('POST', 'user', { token: viewer, body: { name: 'X', email: 'x403@example.com' } }), 403, 'Forbidden', /admin_group/);
      expectError(await call('PUT', `user/${s.adminId}`, { token: viewer, body: { name: 'X', email: 'x403@example.com' } }), 403, 'Forbidden', /admin_group/);
      expectError(await call('DELETE', `user/${s.adminId}`, { token: viewer }), 403, 'Forbidden', /admin_group/);
      expectError(await call('GET', 'user', { token: notifier }), 403, 'Forbidden', /view_group/);
      expectError(await call('GET', `user/${s.adminId}`, { token: notifier }), 403, 'Forbidden', /view_group/);
      expectError(await call('POST', `user/${s.adminId}/message`, { token: viewer, body: { message: 'hi' } }), 403, 'Forbidden', /send_message/);
      expectError(await call('GET', `user/${s.adminId}/history/latest`, { token: viewer }), 403, 'Forbidden', /view_messages/);
    });
  });

  describe('POST /v2/user', () => {
    it('answers 201 {id, links, entity}, ignoring unknown fields such as token', async () => {
      const body = await create({
        name: 'Ada Lovelace', email: 'ada@example.com', mention_name: 'ada', title: 'Analyst', is_group_admin: true,
        password: 'difference-engine', timezone: 'Europe/London', token: 'sent-by-some-clients', is_guest_accessible: true,
      });
      expect(Object.keys(body)).toEqual(['id', 'links', 'entity']);
      expect(Number.isInteger(body.id)).toBe(true);
      expect(body.links).toEqual({ self: expect.stringMatching(new RegExp(`^https?://.+/v2/user/${body.id}$`)) });
      expect(body.entity).toEqual({ id: body.id, name: 'Ada Lovelace', mention_name: 'ada', version: expect.any(String), links: body.links });
      const event = await capture.waitFor('user.created.v1', (e) => e.payload.user.id === body.id);
      expect(event.payload.user).toMatchObject({ name: 'Ada Lovelace', mention_name: 'ada' });

      const record = await show(body.id);
      expect(record).toMatchObject({ title: 'Analyst', is_group_admin: true, timezone: 'Europe/London', roles: ['user', 'admin'] });
      expect(await passwordHash(body.id)).toMatch(/^scrypt\$/);
    });

    it('generates a password when it is empty or absent, and derives the mention name', async () => {
      const empty = await create({ name: 'Grace Hopper', email: 'grace@example.com', password: '' });
      const absent = await create({ name: 'Grace Hopper', email: 'grace2@example.com' });
      expect(await passwordHash(empty.id)).toMatch(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/);
      expect(await passwordHash(absent.id)).toMatch(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/);
      expect(empty.entity.mention_name).toBe('GraceHopper');
      expect(absent.entity.mention_name).toBe('GraceHopper2');
      expect(await show(empty.id)).toMatchObject({ title: '', is_group_admin: false, timezone: 'UTC', roles: ['user'] });
    });

    it('makes a group admin from roles', async () => {
      const body = await create({ name: 'Role Admin', email: 'roles@example.com', roles: ['user', 'admin'] });
      expect(await show(body.id)).toMatchObject({ is_group_admin: true, roles: ['user', 'admin'] });
    });

    it('answers 400 naming the field', async () => {
      expectError(await call('POST', 'user', { body: { email: 'noname@example.com' } }), 400, 'Bad Request', /^name: is required/);
      expectError(await call('POST', 'user', { body: { name: 'No Mail' } }), 400, 'Bad Request', /^email: is required/);
      expectError(await call('POST', 'user', { body: { name: 'X', email: 'not-an-email' } }), 400, 'Bad Request', /^email: /);
      expectError(await call('POST', 'user', { body: { name: 'X', email: 'x1@example.com', password: 'short' } }), 400, 'Bad Request', /^password: /);
      expectError(await call('POST', 'user', { body: { name: 'X', email: 'x2@example.com', timezone: 'Atlantis/Capital' } }), 400, 'Bad Request', /^timezone: /);
      expectError(await call('POST', 'user', { body: { name: 'X', email: 'x3@example.com', mention_name: 'two words' } }), 400, 'Bad Request', /^mention_name: /);
      expectError(await call('POST', 'user', { body: { name: 'X', email: 'x4@example.com', is_group_admin: 'maybe' } }), 400, 'Bad Request', /^is_group_admin: /);
      expectError(await call('POST', 'user', { body: '{"name": ' }), 400, 'Bad Request');
    });

    it('answers 400 for an e-mail address or mention name already taken', async () => {
      expectError(await call('POST', 'user', { body: { name: 'Ada Again', email: 'ADA@example.com', mention_name: 'ada2' } }), 400, 'Bad Request', /^email: /);
      expectError(await call('POST', 'user', { body: { name: 'Other', email: 'other@example.com', mention_name: 'ADA' } }), 400, 'Bad Request', /^mention_name: /);
    });
  });

  describe('GET /v2/user/{id_or_email_or_@mention}', () => {
    it('answers the v2 user record, the same by id, e-mail address and @mention name', async () => {
      const { id } = await create({ name: 'Show Me', email: 'show@example.com', mention_name: 'showme', title: 'Viewer' });
      const byId = await show(id);
      expect(Object.keys(byId)).toEqual(RECORD_KEYS);
      expect(byId).toEqual({
        id, name: 'Show Me', mention_name: 'showme', email: 'show@example.com', title: 'Viewer',
        photo_url: expect.stringMatching(/^https?:\/\//), last_active: null, created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        presence: null, timezone: 'UTC', is_group_admin: false, is_guest: false, is_deleted: false,
        xmpp_jid: expect.stringMatching(new RegExp(`^\\d+_${id}@`)), roles: ['user'], version: expect.stringMatching(/^[0-9A-F]{8}$/),
        links: { self: expect.stringMatching(new RegExp(`/v2/user/${id}$`)) },
      });
      expect(Math.abs(Date.parse(byId.created) - Date.now())).toBeLessThan(60_000);
      expect(await show('SHOW@example.com')).toEqual(byId);
      expect(await show('@showme')).toEqual(byId);
      expect(await show('%40ShowMe')).toEqual(byId);
    });

    it('answers 404 "User <ref> not found" for unknown users', async () => {
      expectError(await call('GET', 'user/999999'), 404, 'Not Found', /^User 999999 not found$/);
      expectError(await call('GET', 'user/nobody@example.com'), 404, 'Not Found', /^User nobody@example.com not found$/);
      expectError(await call('GET', 'user/@nobody'), 404, 'Not Found', /^User @nobody not found$/);
    });
  });

  describe('PUT /v2/user/{id_or_email}', () => {
    it('replaces the user: fields left out go back to their defaults, the password is kept', async () => {
      const { id } = await create({
        name: 'Zed Zero', email: 'zed@example.com', mention_name: 'zz', title: 'Boss', is_group_admin: true,
        timezone: 'Asia/Tokyo', password: 'keep-this-one',
      });
      const before = await show(id);
      const hash = await passwordHash(id);
      expect204(await call('PUT', `user/${id}`, { body: { name: 'Zed Zero', email: 'zed.zero@example.com', token: 'ignored' } }));
      const after = await show(id);
      expect(after).toMatchObject({
        name: 'Zed Zero', email: 'zed.zero@example.com', mention_name: 'ZedZero', title: '', is_group_admin: false, timezone: 'UTC', roles: ['user'],
      });
      expect(after.version).not.toBe(before.version);
      expect(await passwordHash(id)).toBe(hash);
      await capture.waitFor('user.updated.v1', (e) => e.payload.user.id === id && e.payload.user.version === after.version);

      // Replacing again keeps the derived mention name the user already holds.
      expect204(await call('PUT', 'user/zed.zero@example.com', { body: { name: 'Zed Zero', email: 'zed.zero@example.com', title: 'Back' } }));
      expect(await show(id)).toMatchObject({ mention_name: 'ZedZero', title: 'Back' });
    });

    it('sets every field given, by e-mail address or @mention', async () => {
      const { id } = await create({ name: 'Put Me', email: 'putme@example.com' });
      const hash = await passwordHash(id);
      expect204(await call('PUT', 'user/@PutMe', {
        body: { name: 'Put You', email: 'putyou@example.com', mention_name: 'putyou', title: 'T', is_group_admin: true, timezone: 'America/New_York', password: 'a-new-password' },
      }));
      expect(await passwordHash(id)).not.toBe(hash);
      expect(await show(id)).toMatchObject({
        name: 'Put You', email: 'putyou@example.com', mention_name: 'putyou', title: 'T', is_group_admin: true, timezone: 'America/New_York',
      });
    });

    it('answers 400 naming the field, 404 for an unknown user', async () => {
      const { id } = await create({ name: 'Put Bad', email: 'putbad@example.com' });
      expectError(await call('PUT', `user/${id}`, { body: { name: 'Put Bad' } }), 400, 'Bad Request', /^email: is required/);
      expectError(await call('PUT', `user/${id}`, { body: { email: 'putbad@example.com' } }), 400, 'Bad Request', /^name: is required/);
      expectError(await call('PUT', `user/${id}`, { body: { name: 'Put Bad', email: 'ada@example.com' } }), 400, 'Bad Request', /^email: /);
      expectError(await call('PUT', `user/${id}`, { body: { name: 'Put Bad', email: 'putbad@example.com', mention_name: 'ada' } }), 400, 'Bad Request', /^mention_name: /);
      expectError(await call('PUT', 'user/999999', { body: { name: 'N', email: 'n@example.com' } }), 404, 'Not Found', /^User 999999 not found$/);
    });
  });

  describe('DELETE /v2/user/{id_or_email}', () => {
    it('answers 204; the user is then not found, and listed only with include-deleted', async () => {
      const { id } = await create({ name: 'Gone Soon', email: 'gone@example.com' });
      expect204(await call('DELETE', 'user/gone@example.com'));
      await capture.waitFor('user.deleted.v1', (e) => e.payload.user.id === id);
      expectError(await call('GET', `user/${id}`), 404, 'Not Found', new RegExp(`^User ${id} not found$`));
      expectError(await call('DELETE', `user/${id}`), 404, 'Not Found');
      const ids = async (query: Record<string, string | number>) =>
        (expectJson(await call('GET', 'user', { query: { 'max-results': 1000, ...query } }), 200).items as Array<{ id: number }>).map((u) => u.id);
      expect(await ids({})).not.toContain(id);
      expect(await ids({ 'include-deleted': 'true' })).toContain(id);
    });
  });

  describe('GET /v2/user', () => {
    it('pages in id order with start-index and max-results, linking next and previous pages', async () => {
      const all = expectJson(await call('GET', 'user', { query: { 'max-results': 1000 } }), 200);
      expect(all.items.length).toBeGreaterThan(4);
      expect(Object.keys(all.items[0])).toEqual(['id', 'name', 'mention_name', 'version', 'links']);
      expect(all.items.map((u: { id: number }) => u.id)).toEqual([...all.items.map((u: { id: number }) => u.id)].sort((a, b) => a - b));
      expect(all.links).toEqual({ self: expect.stringMatching(/\/v2\/user$/) });

      const first = expectJson(await call('GET', 'user', { query: { 'max-results': 2 } }), 200);
      expect(first).toMatchObject({ startIndex: 0, maxResults: 2 });
      expect(first.items).toEqual(all.items.slice(0, 2));
      expect(first.links.next).toMatch(/start-index=2&max-results=2$/);
      expect(first.links.next).not.toMatch(/auth_token/);
      expect(first.links.prev).toBeUndefined();

      const second = expectJson(await call('GET', 'user', { query: { 'start-index': 2, 'max-results': 2 } }), 200);
      expect(second.items).toEqual(all.items.slice(2, 4));
      expect(second.links.prev).toMatch(/start-index=0&max-results=2$/);

      const last = expectJson(await call('GET', 'user', { query: { 'start-index': all.items.length - 1, 'max-results': 2 } }), 200);
      expect(last.items).toEqual(all.items.slice(-1));
      expect(last.links.next).toBeUndefined();
    });

    it('leaves guests out unless include-guests', async () => {
      const { id } = await create({ name: 'Guest Person', email: 'guest@example.com' });
      await db.query('UPDATE users SET is_guest = true WHERE id = $1', [id]);
      const ids = async (query: Record<string, string | number>) =>
        (expectJson(await call('GET', 'user', { query: { 'max-results': 1000, ...query } }), 200).items as Array<{ id: number }>).map((u) => u.id);
      expect(await ids({})).not.toContain(id);
      expect(await ids({ 'include-guests': 'true' })).toContain(id);
      expect(await show(id)).toMatchObject({ is_guest: true, roles: ['guest'] });
    });

    it('expands each item to the whole user with expand=items, never for a token confined to a room', async () => {
      const { id } = await create({ name: 'Expanded Person', email: 'expanded@example.com' });
      const items = expectJson(await call('GET', 'user', { query: { 'max-results': 1000, expand: 'items' } }), 200).items as Array<Record<string, unknown>>;
      expect(items.find((u) => u.id === id)).toEqual(await show(id));
      const roomId = (expectJson(await call('POST', 'room', { body: { name: `Expand ${Date.now()}` } }), 201) as { id: number }).id;
      const roomToken = await stack.createToken('room', 'expand room token', { room: String(roomId) });
      await db.query(`UPDATE api_tokens SET scopes = '{view_group}' WHERE label = 'expand room token'`);
      expectError(await call('GET', 'user', { token: roomToken, query: { expand: 'items' } }), 403, 'Forbidden', /e-mail address/);
      expect(expectJson(await call('GET', 'user', { token: roomToken }), 200).items.length).toBeGreaterThan(0);
    });

    it('answers 400 naming a bad query parameter', async () => {
      expectError(await call('GET', 'user', { query: { expand: 'everything' } }), 400, 'Bad Request', /^expand: /);
      expectError(await call('GET', 'user', { query: { 'max-results': 5000 } }), 400, 'Bad Request', /^max-results: /);
      expectError(await call('GET', 'user', { query: { 'include-deleted': 'maybe' } }), 400, 'Bad Request', /^include-deleted: /);
    });
  });

  describe('private chat', () => {
    let bobId: number;
    let bobToken: string;

    beforeAll(async () => {
      bobId = (await create({ name: 'Bob Builder', email: 'bob@example.com', mention_name: 'bob' })).id;
      bobToken = await s.personalToken(bobId, ['send_message', 'view_messages']);
      await capture.waitFor('user.created.v1', (e) => e.payload.user.id === bobId);
    });

    it('stores the message as sent by the token\'s user, with no room event: one person\'s event for the live streams', async () => {
      const mark = capture.events.length;
      expect204(await call('POST', 'user/@bob/message', { body: { message: 'Hello Bob', token: 'ignored' } }));
      expect204(await call('POST', 'user/bob@example.com/message', { body: { message: '<b>bold</b><script>x</script>', message_format: 'html', notify: true } }));
      expect(await privateRows(bobId)).toEqual([
        { from_user_id: s.adminId, to_user_id: bobId, body: 'Hello Bob', message_format: 'text' },
        { from_user_id: s.adminId, to_user_id: bobId, body: '<b>bold</b>', message_format: 'html' },
      ]);
      // A later change's event arrives; no room event was published for the messages (webhooks never see
      // them), only the person's event the live streams of the two people carry.
      const { id } = await create({ name: 'After Messages', email: 'after@example.com' });
      await capture.waitFor('user.created.v1', (e) => e.payload.user.id === id);
      const since = capture.events.slice(mark);
      expect(since.filter((e) => !e.routingKey.startsWith('user.')).map((e) => e.routingKey)).toEqual([]);
      expect(since.filter((e) => JSON.stringify(e.envelope).includes('Hello Bob')).map((e) => e.routingKey)).toEqual(['user.private-message-sent.v1']);
    });

    it('answers the latest messages between the two users, oldest first', async () => {
      expect204(await call(`POST`, `user/${s.adminId}/message`, { token: bobToken, body: { message: 'Hi admin' } }));
      const history = expectJson(await call('GET', `user/${bobId}/history/latest`), 200);
      expect(history).toMatchObject({ startIndex: 0, maxResults: 75, links: { self: expect.stringMatching(/\/history\/latest$/) } });
      expect(history.items.map((m: { message: string }) => m.message)).toEqual(['Hello Bob', '<b>bold</b>', 'Hi admin']);
      expect(history.items[2]).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        from: { id: bobId, name: 'Bob Builder', mention_name: 'bob', version: expect.any(String), links: { self: expect.stringMatching(new RegExp(`/v2/user/${bobId}$`)) } },
        message: 'Hi admin', type: 'message', message_format: 'text',
      });
      // Bob sees the same conversation.
      const bobs = expectJson(await call('GET', `user/@${(await show(s.adminId)).mention_name}/history/latest`, { token: bobToken, query: { 'max-results': 1 } }), 200);
      expect(bobs.items.map((m: { message: string }) => m.message)).toEqual(['Hi admin']);
    });

    it('answers 404 for an unknown or deleted user', async () => {
      expectError(await call('POST', 'user/@nobody/message', { body: { message: 'hi' } }), 404, 'Not Found', /^User @nobody not found$/);
      const { id } = await create({ name: 'Deleted Peer', email: 'deletedpeer@example.com' });
      expect204(await call('DELETE', `user/${id}`));
      expectError(await call('POST', `user/${id}/message`, { body: { message: 'hi' } }), 404, 'Not Found', new RegExp(`^User ${id} not found$`));
      expect(await privateRows(id)).toEqual([]);
    });

    it('answers 400 naming the field', async () => {
      expectError(await call('POST', `user/${bobId}/message`, { body: {} }), 400, 'Bad Request', /^message: is required/);
      expectError(await call('POST', `user/${bobId}/message`, { body: { message: '' } }), 400, 'Bad Request', /^message: /);
      expectError(await call('POST', `user/${bobId}/message`, { body: { message: 'x'.repeat(10_001) } }), 400, 'Bad Request', /^message: must be at most 10,000/);
      expectError(await call('POST', `user/${bobId}/message`, { body: { message: 'x', message_format: 'markdown' } }), 400, 'Bad Request', /^message_format: /);
      expectError(await call('POST', `user/${bobId}/message`, { body: { message: 'x', notify: 'loud' } }), 400, 'Bad Request', /^notify: /);
      expectError(await call('POST', `user/${bobId}/message`, { body: { message: '<script>only</script>', message_format: 'html' } }), 400, 'Bad Request', /^message: /);
    });

    it('answers 403 to a token without a user (room token)', async () => {
      const roomId = expectJson(await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: s.v1Admin, name: 'PM Room', owner_user_id: s.adminId }), 200).room.room_id;
      const roomToken = await stack.createToken('room', 'PM room token', { room: String(roomId) });
      expectError(await call('POST', `user/${bobId}/message`, { token: roomToken, body: { message: 'hi' } }), 403, 'Forbidden', /send_message/);
      // Even with the scope, a message needs a user to come from.
      const scoped = await stack.createToken('room', 'PM room token 2', { room: String(roomId) });
      await db.query(`UPDATE api_tokens SET scopes = '{send_message,view_messages}' WHERE label = 'PM room token 2'`);
      expectError(await call('POST', `user/${bobId}/message`, { token: scoped, body: { message: 'hi' } }), 403, 'Forbidden', /personal token/);
      expectError(await call('GET', `user/${bobId}/history/latest`, { token: scoped }), 403, 'Forbidden', /personal token/);
    });
  });
});

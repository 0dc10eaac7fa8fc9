import { EventCapture, Stack, startStack } from '../../../test/support/harness';
import { asXmlText, expectError, expectJson, expectRateLimitHeaders, expectXml, expectXmlError, v1, XML_DECLARATION } from './gateway-helpers';

const USER_KEYS = ['created', 'email', 'is_group_admin', 'last_active', 'mention_name', 'name', 'photo_url', 'status', 'status_message', 'timezone', 'title', 'user_id'];

describe('v1 users/* (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let admin: string;

  const get = (method: string, params: Record<string, string | number>) => v1(stack.baseUrl, 'GET', method, { auth_token: admin, ...params });
  const post = (method: string, params: Record<string, string | number>) => v1(stack.baseUrl, 'POST', method, { auth_token: admin, ...params });
  const createUser = async (email: string, name: string, extra: Record<string, string | number> = {}) =>
    expectJson(await post('users/create', { email, name, ...extra }), 200).user;

  beforeAll(async () => {
    stack = await startStack({ gateway: { RATE_LIMIT_MAX: '10000' }, rooms: true });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    admin = await stack.createToken('admin');
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  describe('users/create', () => {
    it('answers {user: USER + password} with the defaults and a generated password', async () => {
      const before = Math.floor(Date.now() / 1000);
      const res = await post('users/create', { email: 'ada@example.com', name: 'Ada Lovelace' });
      const body = expectJson(res, 200);
      expectRateLimitHeaders(res);
      expect(Object.keys(body)).toEqual(['user']);
      expect(Object.keys(body.user).sort()).toEqual([...USER_KEYS, 'password'].sort());
      expect(body.user).toMatchObject({
        name: 'Ada Lovelace', mention_name: 'AdaLovelace', email: 'ada@example.com', title: '', last_active: 0,
        status: 'offline', status_message: '', is_group_admin: 0, timezone: 'UTC',
      });
      expect(Number.isInteger(body.user.user_id)).toBe(true);
      expect(body.user.created).toBeGreaterThanOrEqual(before - 5);
      expect(body.user.photo_url).toMatch(/^https?:\/\//);
      expect(typeof body.user.password).toBe('string');
      expect(body.user.password.length).toBeGreaterThanOrEqual(8);
      // The password is returned once only.
      const shown = expectJson(await get('users/show', { user_id: body.user.user_id }), 200).user;
      expect(shown).not.toHaveProperty('password');
      const event = await capture.waitFor('user.created.v1', (e) => (e.payload as { user: { id: number } }).user.id === body.user.user_id);
      expect(event.payload).toMatchObject({ user: { id: body.user.user_id, name: 'Ada Lovelace', mention_name: 'AdaLovelace' } });
    });

    it('takes every optional field', async () => {
      const user = await createUser('grace@example.com', 'Grace Hopper', {
        mention_name: 'grace', title: 'Rear Admiral', is_group_admin: 1, password: 'cobol-rules', timezone: 'America/New_York',
      });
      expect(user).toMatchObject({ mention_name: 'grace', title: 'Rear Admiral', is_group_admin: 1, password: 'cobol-rules', timezone: 'America/New_York' });
    });

    it('answers in XML mirroring the JSON', async () => {
      const res = await post('users/create', { email: 'xml@example.com', name: 'Xml User', is_group_admin: 'true', format: 'xml' });
      const doc = expectXml(res, 200) as { user: Record<string, string> };
      expect(Object.keys(doc)).toEqual(['user']);
      expect(Object.keys(doc.user).sort()).toEqual([...USER_KEYS, 'password'].sort());
      expect(doc.user).toMatchObject({ email: 'xml@example.com', name: 'Xml User', is_group_admin: '1', status: 'offline' });
      const shown = expectJson(await get('users/show', { user_id: 'xml@example.com' }), 200);
      const { password: _pw, ...rest } = doc.user;
      expect({ user: rest }).toEqual(asXmlText(shown));
    });

    it('answers 400 naming the parameter for each broken rule', async () => {
      expectError(await post('users/create', { name: 'No Mail' }), 400, 'Bad Request', /^email: is required/);
      expectError(await post('users/create', { email: 'noname@example.com' }), 400, 'Bad Request', /^name: is required/);
      expectError(await post('users/create', { email: 'not-an-email', name: 'X' }), 400, 'Bad Request', /^email: /);
      expectError(await post('users/create', { email: 'a1@example.com', name: 'X', is_group_admin: 'maybe' }), 400, 'Bad Request', /^is_group_admin: /);
      expectError(await post('users/create', { email: 'a2@example.com', name: 'X', password: 'short' }), 400, 'Bad Request', /^password: /);
      expectError(await post('users/create', { email: 'a3@example.com', name: 'X', timezone: 'Atlantis/Capital' }), 400, 'Bad Request', /^timezone: /);
      expectError(await post('users/create', { email: 'a4@example.com', name: 'X', mention_name: 'two words' }), 400, 'Bad Request', /^mention_name: /);
      expectXmlError(await post('users/create', { email: 'bad', name: 'X', format: 'xml' }), 400, 'Bad Request', /^email: /);
    });

    it('gives a second user of the same name a mention name of their own when none is asked for', async () => {
      const first = await createUser('jsmith1@example.com', 'John Smith');
      const second = await createUser('jsmith2@example.com', 'John Smith');
      expect(first.mention_name).toBe('JohnSmith');
      expect(second.mention_name).not.toBe(first.mention_name);
      expect(second.mention_name.toLowerCase()).not.toBe(first.mention_name.toLowerCase());
      expect(second.mention_name).toMatch(/^JohnSmith\d+$/);
    });

    it('answers 400 for an e-mail address or mention name already taken', async () => {
      expectError(await post('users/create', { email: 'ADA@example.com', name: 'Ada Again', mention_name: 'ada2' }), 400, 'Bad Request', /^email: /);
      expectError(await post('users/create', { email: 'other@example.com', name: 'Other', mention_name: 'grace' }), 400, 'Bad Request', /^mention_name: /);
    });
  });

  describe('users/show', () => {
    it('answers {user: USER} by ID and by e-mail address', async () => {
      const created = await createUser('show@example.com', 'Show Me');
      const byId = expectJson(await get('users/show', { user_id: created.user_id }), 200);
      expect(Object.keys(byId)).toEqual(['user']);
      expect(Object.keys(byId.user).sort()).toEqual(USER_KEYS);
      const { password: _pw, ...record } = created;
      expect(byId.user).toEqual(record);
      expect(expectJson(await get('users/show', { user_id: 'SHOW@example.com' }), 200)).toEqual(byId);
    });

    it('answers in XML', async () => {
      const json = expectJson(await get('users/show', { user_id: 'show@example.com' }), 200);
      const res = await get('users/show', { user_id: 'show@example.com', format: 'xml' });
      expect(expectXml(res, 200)).toEqual(asXmlText(json));
      expect(res.text.startsWith(`${XML_DECLARATION}<user><user_id>${json.user.user_id}</user_id>`)).toBe(true);
    });

    it('answers 404 for an unknown user and 400 without user_id', async () => {
      // Worded as v2 words it, and as an unknown room is (`Room <id or name> not found`).
      expect(expectJson(await get('users/show', { user_id: 999999 }), 404))
        .toEqual({ error: { code: 404, type: 'Not Found', message: 'User 999999 not found' } });
      expectError(await get('users/show', { user_id: 'nobody@example.com' }), 404, 'Not Found', /^User nobody@example\.com not found$/);
      expectXmlError(await get('users/show', { user_id: 'nobody@example.com', format: 'xml' }), 404, 'Not Found', /^User nobody@example\.com not found$/);
      expectError(await get('users/show', {}), 400, 'Bad Request', /^user_id: /);
    });
  });

  describe('users/update', () => {
    it('changes only the given fields and answers {user: USER}', async () => {
      const created = await createUser('upd@example.com', 'Up Date', { title: 'Intern' });
      const res = await post('users/update', { user_id: created.user_id, title: 'Engineer', is_group_admin: 1, timezone: 'Europe/Berlin' });
      const body = expectJson(res, 200);
      expect(Object.keys(body)).toEqual(['user']);
      expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
      expect(body.user).toMatchObject({
        user_id: created.user_id, name: 'Up Date', email: 'upd@example.com', mention_name: created.mention_name,
        title: 'Engineer', is_group_admin: 1, timezone: 'Europe/Berlin',
      });
      expect(expectJson(await get('users/show', { user_id: created.user_id }), 200).user).toEqual(body.user);
    });

    it('finds the user by e-mail address and answers in XML', async () => {
      const res = await post('users/update', { user_id: 'upd@example.com', name: 'Renamed', format: 'xml' });
      const doc = expectXml(res, 200) as { user: Record<string, string> };
      expect(doc.user).toMatchObject({ name: 'Renamed', email: 'upd@example.com', title: 'Engineer' });
      expect(Object.keys(doc.user).sort()).toEqual(USER_KEYS);
    });

    it('answers 400 for a broken rule or a taken e-mail address, and changes nothing', async () => {
      expectError(await post('users/update', { user_id: 'upd@example.com', email: 'ada@example.com' }), 400, 'Bad Request', /^email: /);
      expectError(await post('users/update', { user_id: 'upd@example.com', timezone: 'Nope/Nope' }), 400, 'Bad Request', /^timezone: /);
      expectError(await post('users/update', { user_id: 'upd@example.com', is_group_admin: 'sure' }), 400, 'Bad Request', /^is_group_admin: /);
      expectError(await post('users/update', { title: 'x' }), 400, 'Bad Request', /^user_id: /);
      expect(expectJson(await get('users/show', { user_id: 'upd@example.com' }), 200).user).toMatchObject({ email: 'upd@example.com', timezone: 'Europe/Berlin' });
    });

    it('answers 404 for an unknown user', async () => {
      expectError(await post('users/update', { user_id: 'ghost@example.com', title: 'x' }), 404, 'Not Found', /^User ghost@example\.com not found$/);
    });
  });

  describe('users/delete, users/undelete, users/list', () => {
    let id: number;

    beforeAll(async () => {
      id = (await createUser('temp@example.com', 'Temp User')).user_id;
    });

    it('users/list answers {users: [USER + is_deleted...]}', async () => {
      const res = await get('users/list', {});
      const body = expectJson(res, 200);
      expect(Object.keys(body)).toEqual(['users']);
      for (const u of body.users) expect(Object.keys(u).sort()).toEqual([...USER_KEYS, 'is_deleted'].sort());
      const entry = body.users.find((u: { user_id: number }) => u.user_id === id);
      expect(entry).toMatchObject({ email: 'temp@example.com', is_deleted: 0 });
    });

    it('users/list answers <users><user>...</user></users> in XML', async () => {
      const json = expectJson(await get('users/list', {}), 200);
      const res = await get('users/list', { format: 'xml' });
      expect(expectXml(res, 200)).toEqual(asXmlText(json));
      expect(res.text.startsWith(`${XML_DECLARATION}<users><user><user_id>`)).toBe(true);
    });

    it('users/delete answers {deleted: true}; the user disappears from show and list', async () => {
      const res = await post('users/delete', { user_id: 'temp@example.com' });
      expect(expectJson(res, 200)).toEqual({ deleted: true });
      expect(res.text).toBe('{"deleted":true}');
      expectError(await get('users/show', { user_id: id }), 404, 'Not Found');
      expect(expectJson(await get('users/list', {}), 200).users.map((u: { user_id: number }) => u.user_id)).not.toContain(id);
      const all = expectJson(await get('users/list', { include_deleted: 1 }), 200).users;
      expect(all.find((u: { user_id: number }) => u.user_id === id)).toMatchObject({ is_deleted: 1 });
      expect(expectJson(await get('users/list', { include_deleted: 'true' }), 200).users).toEqual(all);
      await capture.waitFor('user.deleted.v1', (e) => (e.payload as { user: { id: number } }).user.id === id);
    });

    it('users/delete answers 404 for a user already deleted or unknown', async () => {
      expectError(await post('users/delete', { user_id: id }), 404, 'Not Found');
      expectError(await post('users/delete', { user_id: 'ghost@example.com' }), 404, 'Not Found');
      expectError(await post('users/delete', {}), 400, 'Bad Request', /^user_id: /);
    });

    it('users/undelete answers {undeleted: true} and the user is back', async () => {
      const res = await post('users/undelete', { user_id: id });
      expect(expectJson(res, 200)).toEqual({ undeleted: true });
      expect(res.text).toBe('{"undeleted":true}');
      expect(expectJson(await get('users/show', { user_id: 'temp@example.com' }), 200).user).toMatchObject({ user_id: id, name: 'Temp User' });
    });

    it('users/undelete answers 400 for a user that is not deleted, 404 for an unknown one', async () => {
      expectError(await post('users/undelete', { user_id: id }), 400, 'Bad Request', /^user_id: /);
      expectError(await post('users/undelete', { user_id: 999999 }), 404, 'Not Found');
    });

    it('undeletes by e-mail address, and both answer in XML', async () => {
      const del = await post('users/delete', { user_id: id, format: 'xml' });
      expectXml(del, 200);
      expect(del.text).toBe(`${XML_DECLARATION}<deleted>true</deleted>`);
      const undel = await post('users/undelete', { user_id: 'temp@example.com', format: 'xml' });
      expectXml(undel, 200);
      expect(undel.text).toBe(`${XML_DECLARATION}<undeleted>true</undeleted>`);
      expectJson(await get('users/show', { user_id: id }), 200);
    });

    it('lets a new user take a deleted user\'s e-mail address, and refuses to undelete the old one then', async () => {
      const old = await createUser('reuse@example.com', 'Old Reuse', { mention_name: 'reuse_old' });
      expectJson(await post('users/delete', { user_id: old.user_id }), 200);
      const fresh = await createUser('reuse@example.com', 'New Reuse', { mention_name: 'reuse_new' });
      expect(expectJson(await get('users/show', { user_id: 'reuse@example.com' }), 200).user.user_id).toBe(fresh.user_id);
      expectError(await post('users/undelete', { user_id: old.user_id }), 400, 'Bad Request', /^user_id: /);
    });
  });
});

import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../apps/rooms/src/outbox/unit-of-work';
import { TokenCommands } from '../../../apps/rooms/src/cli/token-commands';
import { Stack, startStack } from '../../../test/support/harness';
import {
  call, expectError, expectJson, expectRateLimitHeaders, expectXml, expectXmlError, v1, XML_DECLARATION,
} from './gateway-helpers';

const AUTH_TEST_BODY = { success: { code: 202, type: 'Accepted', message: 'This auth_token has access to use this method.' } };

describe('v1 token authentication (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let admin: string;
  let notification: string;
  let roomId: number;
  let userId: number;

  beforeAll(async () => {
    stack = await startStack({ gateway: true, rooms: true });
    admin = await stack.createToken('admin', 'Admin Script');
    notification = await stack.createToken('notification', 'Notifier');
    const user = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: admin, email: 'owner@example.com', name: 'Owner' });
    userId = user.json.user.user_id;
    const room = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: admin, name: 'Auth Room', owner_user_id: userId });
    roomId = room.json.room.room_id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const history = async () => (await v1(stack.baseUrl, 'GET', 'rooms/history', { auth_token: admin, room_id: roomId, date: 'recent' })).json.messages;

  describe('401', () => {
    it('answers a missing token with 401 and the error body, in JSON', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/list', {});
      expectError(res, 401, 'Unauthorized', /^Auth token invalid\. Please see: http.*\/docs\/api\/auth$/);
      expectRateLimitHeaders(res);
    });

    it('answers an empty token like a missing one', async () => {
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: '' }), 401, 'Unauthorized');
    });

    it('answers an invalid token with 401 and the documented message, in JSON', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: 'not-a-real-token' });
      const message = expectError(res, 401, 'Unauthorized', /^Auth token invalid\. Please see: http.*\/docs\/api\/auth$/);
      expectRateLimitHeaders(res);
      // The pointer leads to a page that exists.
      const docs = await fetch(message.replace(/^.*Please see: /, '').replace(/^https?:\/\/[^/]+/, stack.baseUrl));
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('auth_token');
    });

    it('answers 401 in XML when format=xml', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: 'nope', format: 'xml' });
      expectXmlError(res, 401, 'Unauthorized', /^Auth token invalid\./);
      expect(res.text).toMatch(new RegExp(`^${XML_DECLARATION.replace(/[?.]/g, '\\$&')}<error><code>401</code><type>Unauthorized</type><message>Auth token invalid\\.`));
      const missing = await v1(stack.baseUrl, 'POST', 'rooms/message', { format: 'xml', room_id: roomId, from: 'x', message: 'y' });
      expectXmlError(missing, 401, 'Unauthorized', /^Auth token invalid\./);
    });

    it('answers 401 for a token that was revoked', async () => {
      const tokens = new TokenCommands(stack.rooms!.get(DataSource), stack.rooms!.get(UnitOfWork));
      const created = await tokens.create('admin', 'soon revoked');
      expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: created.token }), 200);
      expect(await tokens.revoke(created.id)).toBe(true);
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: created.token }), 401, 'Unauthorized', /^Auth token invalid/);
      expectError(await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: created.token, room_id: roomId, from: 'x', message: 'y' }), 401, 'Unauthorized');
    });

    it('does not act on a request with an invalid token', async () => {
      const before = (await history()).length;
      expectError(await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: 'bad', room_id: roomId, from: 'Bot', message: 'must not arrive' }), 401, 'Unauthorized');
      expect(await history()).toHaveLength(before);
    });
  });

  describe('token kinds', () => {
    it('lets a notification token send messages and set topics', async () => {
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: notification, room_id: roomId, from: 'Notifier', message: 'from a notification token' }), 200))
        .toEqual({ status: 'sent' });
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'rooms/topic', { auth_token: notification, room_id: roomId, topic: 'Set by notifier' }), 200))
        .toEqual({ status: 'ok' });
    });

    it.each([
      ['GET', 'rooms/list', {}],
      ['GET', 'rooms/show', { room_id: 'Auth Room' }],
      ['GET', 'rooms/history', { room_id: 'Auth Room', date: 'recent' }],
      ['POST', 'rooms/create', { name: 'Forbidden Room', owner_user_id: '1' }],
      ['POST', 'rooms/delete', { room_id: 'Auth Room' }],
      ['GET', 'users/list', {}],
      ['GET', 'users/show', { user_id: 'owner@example.com' }],
      ['POST', 'users/create', { email: 'x@example.com', name: 'X' }],
      ['POST', 'users/update', { user_id: 'owner@example.com', title: 'Hacked' }],
      ['POST', 'users/delete', { user_id: 'owner@example.com' }],
      ['POST', 'users/undelete', { user_id: 'owner@example.com' }],
    ] as const)('answers 403 Forbidden to a notification token on %s %s', async (verb, method, params) => {
      const res = await v1(stack.baseUrl, verb, method, { auth_token: notification, ...params });
      expectError(res, 403, 'Forbidden', new RegExp(`notification auth_token does not have access to ${method}`));
      expectRateLimitHeaders(res);
    });

    it('performs nothing on a 403', async () => {
      expectJson(await v1(stack.baseUrl, 'GET', 'rooms/show', { auth_token: admin, room_id: 'Auth Room' }), 200);
      const user = expectJson(await v1(stack.baseUrl, 'GET', 'users/show', { auth_token: admin, user_id: userId }), 200).user;
      expect(user.title).toBe('');
      const rooms = expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin }), 200).rooms;
      expect(rooms.map((r: { name: string }) => r.name)).toEqual(['Auth Room']);
    });

    it('answers 403 in XML when format=xml', async () => {
      expectXmlError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: notification, format: 'xml' }), 403, 'Forbidden');
    });
  });

  describe('auth_test=true', () => {
    it('answers 202 with the success body and sends no message', async () => {
      const before = await history();
      const res = await v1(stack.baseUrl, 'POST', 'rooms/message', {
        auth_token: notification, auth_test: 'true', room_id: roomId, from: 'Tester', message: 'must not be stored',
      });
      expect(expectJson(res, 202)).toEqual(AUTH_TEST_BODY);
      expectRateLimitHeaders(res);
      const after = await history();
      expect(after).toEqual(before);
      expect(JSON.stringify(after)).not.toContain('must not be stored');
    });

    it('answers 202 in XML', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin, auth_test: 'true', format: 'xml' });
      expectXml(res, 202);
      expect(res.text).toBe(`${XML_DECLARATION}<success><code>202</code><type>Accepted</type><message>This auth_token has access to use this method.</message></success>`);
    });

    it('does not create, update or delete anything, with the flag written true, TRUE or 1 (as clients send flags)', async () => {
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: admin, auth_test: 'true', name: 'Never Made', owner_user_id: userId }), 202)).toEqual(AUTH_TEST_BODY);
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'rooms/topic', { auth_token: admin, auth_test: 'TRUE', room_id: roomId, topic: 'Never set' }), 202)).toEqual(AUTH_TEST_BODY);
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'rooms/delete', { auth_token: admin, auth_test: '1', room_id: roomId }), 202)).toEqual(AUTH_TEST_BODY);
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: admin, auth_test: 'true', email: 'never@example.com', name: 'Never' }), 202)).toEqual(AUTH_TEST_BODY);
      expect(expectJson(await v1(stack.baseUrl, 'POST', 'users/delete', { auth_token: admin, auth_test: '1', user_id: userId }), 202)).toEqual(AUTH_TEST_BODY);

      const rooms = expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin }), 200).rooms;
      expect(rooms).toHaveLength(1);
      expect(rooms[0]).toMatchObject({ room_id: roomId, name: 'Auth Room' });
      expect(rooms[0].topic).not.toBe('Never set');
      const users = expectJson(await v1(stack.baseUrl, 'GET', 'users/list', { auth_token: admin }), 200).users;
      expect(users.map((u: { email: string }) => u.email)).toEqual(['owner@example.com']);
    });

    it('answers 401 when the token lacks access to the method', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: notification, auth_test: 'true' });
      expectError(res, 401, 'Unauthorized', /does not have access to rooms\/list/);
      expectXmlError(await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: notification, auth_test: 'true', format: 'xml', email: 'a@b.co', name: 'A' }), 401, 'Unauthorized');
    });

    it('answers 401 for an invalid or missing token', async () => {
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: 'nope', auth_test: 'true' }), 401, 'Unauthorized', /^Auth token invalid/);
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_test: 'true' }), 401, 'Unauthorized');
    });

    it('answers 202 for every method the token may call', async () => {
      const methods: Array<['GET' | 'POST', string]> = [
        ['POST', 'rooms/create'], ['POST', 'rooms/delete'], ['GET', 'rooms/history'], ['GET', 'rooms/list'],
        ['POST', 'rooms/message'], ['GET', 'rooms/message'], ['GET', 'rooms/show'], ['POST', 'rooms/topic'],
        ['POST', 'users/create'], ['POST', 'users/delete'], ['GET', 'users/list'], ['GET', 'users/show'],
        ['POST', 'users/undelete'], ['POST', 'users/update'],
      ];
      for (const [verb, method] of methods) {
        const res = await v1(stack.baseUrl, verb, method, { auth_token: admin, auth_test: 'true' });
        expect({ method, status: res.status }).toEqual({ method, status: 202 });
        expect(res.json).toEqual(AUTH_TEST_BODY);
      }
      expectJson(await v1(stack.baseUrl, 'GET', 'rooms/message', { auth_token: notification, auth_test: 'true' }), 202);
      expectJson(await v1(stack.baseUrl, 'POST', 'rooms/topic', { auth_token: notification, auth_test: 'true' }), 202);
    });

    it('refuses an auth_test that is not a flag with 400 naming it, and does nothing', async () => {
      for (const value of ['yes', 'on', '2']) {
        const res = await v1(stack.baseUrl, 'POST', 'rooms/delete', { auth_token: admin, auth_test: value, room_id: roomId });
        expectError(res, 400, 'Bad Request', new RegExp(`^auth_test: must be 0, 1, true or false \\(got "${value}"\\)$`));
      }
      // Before the token is looked at: a bad flag with a bad token is still the flag's 400.
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: 'nope', auth_test: 'yes' }), 400, 'Bad Request', /^auth_test:/);
      const rooms = expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin }), 200).rooms;
      expect(rooms.map((r: { room_id: number }) => r.room_id)).toContain(roomId);
    });

    it('performs the action when auth_test is not true', async () => {
      const res = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: admin, auth_test: 'false', room_id: roomId, from: 'Bot', message: 'auth_test false sends' });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
      expect((await history()).map((m: { message: string }) => m.message)).toContain('auth_test false sends');
    });
  });

  describe('where the token comes from', () => {
    it('takes auth_token from the form body of a POST', async () => {
      const res = await call(stack.baseUrl, 'rooms/topic', { verb: 'POST', form: { auth_token: admin, room_id: roomId, topic: 'Body token' } });
      expect(expectJson(res, 200)).toEqual({ status: 'ok' });
    });

    it('takes auth_token from the query string of a POST', async () => {
      const res = await call(stack.baseUrl, 'rooms/topic', { verb: 'POST', query: { auth_token: admin }, form: { room_id: roomId, topic: 'Query token' } });
      expect(expectJson(res, 200)).toEqual({ status: 'ok' });
    });

    it('does not take a token from an Authorization header alone', async () => {
      const res = await fetch(`${stack.baseUrl}/v1/rooms/list`, { headers: { authorization: `Bearer ${admin}` } });
      expect(res.status).toBe(401);
    });
  });
});

import { Stack, startStack, v1 } from '../../../test/support/harness';
import { call, expectError, expectJson, expectRateLimitHeaders, expectXmlError } from './gateway-helpers';

/**
 * Parameters are decoded and checked in one place, before anything reads them: input that
 * is not one value, or text PostgreSQL, JSON and XML cannot carry, answers 400 naming the
 * parameter, never 5xx, before authentication.
 */
describe('v1 parameters that cannot be read (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let admin: string;
  let roomId: number;

  beforeAll(async () => {
    stack = await startStack({ gateway: { RATE_LIMIT_MAX: '10000' }, rooms: true });
    admin = await stack.createToken('admin');
    const user = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: admin, email: 'p@example.com', name: 'P' });
    roomId = expectJson(await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: admin, name: 'Params Room', owner_user_id: user.json.user.user_id }), 200).room.room_id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const json = (method: string, body: string, verb = 'POST') => call(stack.baseUrl, method, { verb, contentType: 'application/json', body });
  const recent = async () => expectJson(await v1(stack.baseUrl, 'GET', 'rooms/history', { auth_token: admin, room_id: roomId, date: 'recent' }), 200).messages as Array<{ message: string }>;

  it('answers 400 naming a parameter given as a JSON array of objects, or an object', async () => {
    const res = await json('rooms/list', '{"auth_token":[{"toString":1}]}');
    expectError(res, 400, 'Bad Request', 'auth_token: must be a single value');
    expectRateLimitHeaders(res);
    expectError(await json('rooms/message', `{"auth_token":"${admin}","room_id":{"id":1},"from":"a","message":"b"}`), 400, 'Bad Request', /^room_id: must be a single value$/);
  });

  it('answers 400 for 20,000 nested arrays as a value, and never 5xx for them as the whole body', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    expectError(await json('rooms/message', `{"auth_token":"${admin}","message":${deep}}`), 400, 'Bad Request', /^message: must be a single value$/);
    const whole = await json('rooms/message', deep);
    expect(whole.status).toBeGreaterThanOrEqual(400);
    expect(whole.status).toBeLessThan(500);
  });

  it('answers 400 for a parameter repeated with differing values, even a JSON array of them', async () => {
    expectError(await json('rooms/topic', `{"auth_token":"${admin}","room_id":${roomId},"topic":["a","b"]}`), 400, 'Bad Request', /^topic: must be given once$/);
  });

  it('refuses NUL in a message or an e-mail address, naming it, and stores nothing', async () => {
    const before = (await recent()).length;
    const res = await call(stack.baseUrl, 'rooms/message', { verb: 'POST', body: `auth_token=${admin}&room_id=${roomId}&from=CI&message=a%00b` });
    expectError(res, 400, 'Bad Request', 'message: must not contain NUL characters');
    expectError(await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: admin, email: 'a\u0000@example.com', name: 'N' }), 400, 'Bad Request', /^email: must not contain NUL/);
    expectError(await v1(stack.baseUrl, 'POST', 'users/update', { auth_token: admin, user_id: 'p@example.com', email: 'x\u0000@example.com' }), 400, 'Bad Request', /^email: /);
    expect(await recent()).toHaveLength(before);
  });

  it('refuses an unpaired surrogate in a JSON body, naming the parameter', async () => {
    expectError(await json('rooms/topic', `{"auth_token":"${admin}","room_id":${roomId},"topic":"\\ud800"}`), 400, 'Bad Request', /^topic: .*surrogate/);
    expectError(await json('rooms/message', `{"auth_token":"${admin}","room_id":${roomId},"from":"CI","message":"x\\udc00"}`), 400, 'Bad Request', /^message: /);
  });

  it('checks the parameters before the token: no token is needed to be told', async () => {
    expectError(await call(stack.baseUrl, 'rooms/message', { query: { room_id: '1', from: 'CI', message: 'a\u0000b' } }), 400, 'Bad Request', /^message: /);
    expectXmlError(await call(stack.baseUrl, 'rooms/message', { query: { format: 'xml', auth_token: 'nope', topic: '\u0000' } }), 400, 'Bad Request', /^topic: /);
  });

  it('does not authenticate with auth_token[]=: a list where one value is expected, named without its brackets', async () => {
    expectError(await call(stack.baseUrl, 'rooms/list', { query: { 'auth_token[]': admin } }), 400, 'Bad Request', 'auth_token: must be a single value');
  });

  it('answers room_id[]= (or room_id[0]=) with 400 saying room_id must be a single value, in the query or the form body', async () => {
    expectError(await call(stack.baseUrl, 'rooms/show', { query: { auth_token: admin, 'room_id[]': String(roomId) } }), 400, 'Bad Request', 'room_id: must be a single value');
    expectError(await call(stack.baseUrl, 'rooms/show', { query: { auth_token: admin, 'room_id[0]': String(roomId) } }), 400, 'Bad Request', 'room_id: must be a single value');
    expectError(await call(stack.baseUrl, 'rooms/topic', { verb: 'POST', form: { auth_token: admin, 'room_id[]': String(roomId), topic: 'never' } }), 400, 'Bad Request', 'room_id: must be a single value');
  });

  it('keeps the 4xx of bodies that cannot be read', async () => {
    expectError(await json('rooms/message', '{"room_id": '), 400, 'Bad Request', 'The request body could not be parsed.');
    expectError(await call(stack.baseUrl, 'rooms/message', { verb: 'POST', contentType: 'application/json; charset=koi8-r', body: '{}' }), 415, 'Unsupported Media Type');
    const res = await fetch(`${stack.baseUrl}/v1/rooms/message`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'compress' }, body: 'a=b' });
    expect(res.status).toBe(415);
  });

  it('answers other paths with the 404 body, the rate-limit headers and no v1 method', async () => {
    // `/` is the web console's page (when built); other paths outside the API are not found.
    for (const path of ['/v1/rooms', '/nothing/at/all', '/assets/not-a-file.js']) {
      const res = await call(stack.baseUrl, path, { query: { auth_token: admin } });
      expectError(res, 404, 'Not Found', 'Not found. The version 1 API lives under /v1/<resource>/<method>.');
      expectRateLimitHeaders(res);
    }
    expectXmlError(await call(stack.baseUrl, '/nothing', { query: { format: 'xml' } }), 404, 'Not Found');
    // Under /v2, the pointer is to the v2 operations.
    expectError(await call(stack.baseUrl, '/v2/nothing', { query: { auth_token: admin } }), 404, 'Not Found', 'Not found. The version 2 API\'s operations are listed at /docs/api/v2.');
  });

  it('answers a wrong method on a path served outside the APIs 405 with Allow, not 404', async () => {
    // The service's own pages: a path that exists under GET is not "not found" under POST.
    for (const [verb, path] of [['POST', '/health'], ['DELETE', '/health/ready'], ['PUT', '/docs/api/v2'], ['POST', '/docs/api/auth']]) {
      const res = await fetch(`${stack.baseUrl}${path}?auth_token=${admin}`, { method: verb });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(await res.json()).toEqual({ error: { code: 405, type: 'Method Not Allowed', message: `${verb} is not allowed on ${path}: it takes GET, HEAD, OPTIONS.` } });
    }
    const options = await fetch(`${stack.baseUrl}/health`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow'), await options.text()]).toEqual([204, 'GET, HEAD, OPTIONS', '']);
    // A path served under no method stays 404, whatever the method.
    expect((await fetch(`${stack.baseUrl}/nothing/at/all`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${stack.baseUrl}/health`, { method: 'GET' })).status).toBe(200);
  });
});

import { connect } from 'node:net';
import { Stack, startStack, v1 } from '../../../test/support/harness';
import { call, expectError, expectJson, expectRateLimitHeaders, expectXmlError } from './gateway-helpers';

describe('v1 HTTP edges (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let admin: string;
  let roomId: number;

  beforeAll(async () => {
    stack = await startStack({ gateway: { BODY_LIMIT_BYTES: '2048' }, rooms: true });
    admin = await stack.createToken('admin');
    const user = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: admin, email: 'edge@example.com', name: 'Edge' });
    const room = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: admin, name: 'Edge Room', owner_user_id: user.json.user.user_id });
    roomId = room.json.room.room_id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const recent = async () => (await v1(stack.baseUrl, 'GET', 'rooms/history', { auth_token: admin, room_id: roomId, date: 'recent' })).json.messages as Array<{ message: string }>;

  describe('404 unknown method', () => {
    it('answers an unknown method with 404 and the error body', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/frobnicate', { auth_token: admin });
      expectError(res, 404, 'Not Found', /rooms\/frobnicate/);
      expectRateLimitHeaders(res);
    });

    it('answers in XML when asked', async () => {
      expectXmlError(await v1(stack.baseUrl, 'GET', 'nothing/here', { auth_token: admin, format: 'xml' }), 404, 'Not Found');
    });

    it('answers paths that are not resource/method with the v1 404 body', async () => {
      expectError(await call(stack.baseUrl, '/v1/rooms', { query: { auth_token: admin } }), 404, 'Not Found');
      expectError(await call(stack.baseUrl, '/v1/rooms/message/extra', { query: { auth_token: admin } }), 404, 'Not Found');
    });

    it('does not treat inherited object properties as methods', async () => {
      expectError(await call(stack.baseUrl, '/v1/__proto__/constructor', { query: { auth_token: admin } }), 404, 'Not Found');
    });
  });

  describe('requests that are not valid HTTP', () => {
    /** Writes `raw` to the gateway's socket and answers all it sent back before closing. */
    const rawRequest = (raw: string) => new Promise<string>((resolve, reject) => {
      const url = new URL(stack.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () => socket.write(raw));
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

    it('answers a line break inside a header value (a token pasted with its newline) 400 with the error body', async () => {
      const answer = await rawRequest(`GET /v1/rooms/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer abc\r\ncreated token 2\r\n\r\n`);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request/);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body)).toEqual({ error: { code: 400, type: 'Bad Request', message: expect.stringMatching(/not valid HTTP.*header/) } });
    });

    it.each(['/v1/rooms/%ZZ', '/v2/room/%ZZ', '/v2/room/%C3%28/notification'])(
      'answers a path it cannot decode (%s) 400 with the error body', async (path) => {
        const answer = await rawRequest(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        const [head, body] = answer.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 400 /);
        expect(head).toMatch(/content-type: application\/json/i);
        expect(JSON.parse(body)).toEqual({ error: { code: 400, type: 'Bad Request', message: expect.stringMatching(/could not be decoded/) } });
      });

    it('answers headers past the limit 431 with the error body', async () => {
      const answer = await rawRequest(`GET /v1/rooms/list HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(170_000)}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(JSON.parse(answer.split('\r\n\r\n')[1]).error.code).toBe(431);
    });
  });

  describe('405 wrong HTTP verb', () => {
    it.each([
      ['GET', 'rooms/create', 'POST'], ['GET', 'rooms/delete', 'POST'], ['POST', 'rooms/history', 'GET, HEAD'],
      ['POST', 'rooms/list', 'GET, HEAD'], ['POST', 'rooms/show', 'GET, HEAD'], ['GET', 'rooms/topic', 'POST'],
      ['GET', 'users/create', 'POST'], ['GET', 'users/delete', 'POST'], ['POST', 'users/list', 'GET, HEAD'],
      ['POST', 'users/show', 'GET, HEAD'], ['GET', 'users/undelete', 'POST'], ['GET', 'users/update', 'POST'],
      ['PUT', 'rooms/message', 'GET, POST'], ['DELETE', 'rooms/list', 'GET, HEAD'],
    ])('%s %s answers 405 with Allow: %s', async (verb, method, allow) => {
      const res = await call(stack.baseUrl, method, { verb, query: { auth_token: admin } });
      expectError(res, 405, 'Method Not Allowed', new RegExp(method));
      expect(res.headers.get('allow')).toBe(allow);
      expectRateLimitHeaders(res);
    });

    it('answers a verb the HTTP layer does not route (PURGE) with the method\'s own verbs in Allow, or 404 for an unknown method', async () => {
      for (const [method, allow] of [['rooms/list', 'GET, HEAD'], ['rooms/message', 'GET, POST'], ['rooms/delete', 'POST']]) {
        const res = await call(stack.baseUrl, method, { verb: 'PURGE', query: { auth_token: admin } });
        expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, allow]);
        expectError(res, 405, 'Method Not Allowed', `${method} must be called with ${allow.replace(', ', ' or ')}`);
      }
      expectXmlError(await call(stack.baseUrl, 'rooms/list', { verb: 'PURGE', query: { format: 'xml' } }), 405, 'Method Not Allowed');
      // The method is looked for before the verb, as for a routed verb.
      const unknown = await call(stack.baseUrl, 'rooms/purge', { verb: 'PURGE', query: { auth_token: admin } });
      expectError(unknown, 404, 'Not Found', 'Unknown API method: rooms/purge');
      expect(unknown.headers.get('allow')).toBeNull();
    });

    it('serves HEAD wherever a method only reads with GET: the GET answer\'s status and headers, no body', async () => {
      for (const method of ['rooms/list', 'rooms/show', 'rooms/history', 'users/list']) {
        const query = new URLSearchParams({ auth_token: admin, room_id: String(roomId), date: 'recent' });
        const get = await fetch(`${stack.baseUrl}/v1/${method}?${query}`);
        const head = await fetch(`${stack.baseUrl}/v1/${method}?${query}`, { method: 'HEAD' });
        expect([method, head.status, head.headers.get('content-type'), await head.text()]).toEqual([method, 200, get.headers.get('content-type'), '']);
        expect(head.headers.get('content-length')).toBe(get.headers.get('content-length') ?? String(Buffer.byteLength(await get.text())));
        expect(head.headers.get('x-ratelimit-limit')).not.toBeNull();
      }
      const xml = await fetch(`${stack.baseUrl}/v1/rooms/list?auth_token=${admin}&format=xml`, { method: 'HEAD' });
      expect([xml.status, xml.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/xml/)]);
      expect((await fetch(`${stack.baseUrl}/v1/rooms/list?auth_token=nope`, { method: 'HEAD' })).status).toBe(401);
      const post = await fetch(`${stack.baseUrl}/v1/rooms/create?auth_token=${admin}`, { method: 'HEAD' });
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'POST']);
    });

    it('does not perform a POST-only action on GET', async () => {
      await v1(stack.baseUrl, 'GET', 'rooms/topic', { auth_token: admin, room_id: roomId, topic: 'via GET' });
      const room = expectJson(await v1(stack.baseUrl, 'GET', 'rooms/show', { auth_token: admin, room_id: roomId }), 200).room;
      expect(room.topic).not.toBe('via GET');
    });

    it('accepts rooms/message as GET', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/message', { auth_token: admin, room_id: roomId, from: 'Getter', message: 'sent with GET' });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
      expect((await recent()).map((m) => m.message)).toContain('sent with GET');
    });

    it('refuses HEAD on rooms/message (its GET sends: HEAD must never act) with 405 and sends nothing', async () => {
      const query = new URLSearchParams({ auth_token: admin, room_id: String(roomId), from: 'Header', message: 'sent with HEAD' });
      const res = await fetch(`${stack.baseUrl}/v1/rooms/message?${query}`, { method: 'HEAD' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST');
      expect((await recent()).map((m) => m.message)).not.toContain('sent with HEAD');
    });
  });

  describe('format', () => {
    it('answers format=yaml with 406 naming format, in JSON (a format that cannot be served, as the original)', async () => {
      const res = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin, format: 'yaml' });
      expectError(res, 406, 'Not Acceptable', /^format: must be json or xml/);
      expectRateLimitHeaders(res);
    });

    it('takes format in any case, as flags are (XML, Json)', async () => {
      const xml = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin, format: 'XML' });
      expect([xml.status, xml.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/xml/)]);
      expect(xml.text).toMatch(/<rooms>/);
      expect(expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin, format: 'Json' }), 200).rooms).toHaveLength(1);
      // Errors too, including those found before the format is read.
      expectXmlError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: 'nope', format: 'Xml' }), 401, 'Unauthorized');
      expectXmlError(await call(stack.baseUrl, '/v1/rooms/nothing', { query: { format: 'XML' } }), 404, 'Not Found');
    });

    it('treats an empty format as json', async () => {
      expect(expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin, format: '' }), 200).rooms).toHaveLength(1);
    });
  });

  describe('parameters', () => {
    it('reads POST parameters sent in the query string (as node-hipchat does)', async () => {
      const res = await call(stack.baseUrl, 'rooms/message', {
        verb: 'POST', query: { auth_token: admin, room_id: roomId, from: 'Query Bot', message: 'all in the query', format: 'json' },
      });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
      expect((await recent()).map((m) => m.message)).toContain('all in the query');
    });

    it('takes a GET rooms/message of 10,000 characters that each take 12 bytes percent-encoded (120 KB of query string)', async () => {
      const message = '\u{1F680}'.repeat(5_000) + '\u00e9'.repeat(5_000); // 5,000 emoji (2 UTF-16 units each) and 5,000 accented letters
      const res = await call(stack.baseUrl, 'rooms/message', { verb: 'GET', query: { auth_token: admin, room_id: roomId, from: 'Query Bot', message } });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
      expect((await recent()).map((m) => m.message)).toContain(message);
    });

    it('lets the form body win over the query string', async () => {
      const res = await call(stack.baseUrl, 'rooms/topic', {
        verb: 'POST', query: { auth_token: admin, room_id: roomId, topic: 'query topic' }, form: { topic: 'body topic' },
      });
      expect(expectJson(res, 200)).toEqual({ status: 'ok' });
      expect(expectJson(await v1(stack.baseUrl, 'GET', 'rooms/show', { auth_token: admin, room_id: roomId }), 200).room.topic).toBe('body topic');
    });

    it('answers 400 for a parameter given twice with differing values', async () => {
      const res = await call(stack.baseUrl, 'rooms/show', { query: { auth_token: admin, room_id: [String(roomId), '999'] } });
      expectError(res, 400, 'Bad Request', /^room_id: /);
      expectRateLimitHeaders(res);
    });

    it('accepts a parameter given twice with the same value', async () => {
      const res = await call(stack.baseUrl, 'rooms/show', { query: { auth_token: admin, room_id: [String(roomId), String(roomId)] } });
      expect(expectJson(res, 200).room.room_id).toBe(roomId);
    });

    it('accepts a JSON body', async () => {
      const res = await call(stack.baseUrl, 'rooms/message', {
        verb: 'POST', contentType: 'application/json',
        body: JSON.stringify({ auth_token: admin, room_id: roomId, from: 'Json Bot', message: 'json body', notify: true }),
      });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
    });

    it('answers 400 for a body that cannot be parsed', async () => {
      const res = await call(stack.baseUrl, 'rooms/message', { verb: 'POST', query: { auth_token: admin }, contentType: 'application/json', body: '{"room_id": ' });
      expectError(res, 400, 'Bad Request');
      expectRateLimitHeaders(res);
    });
  });

  describe('413 body too large', () => {
    it('answers a body over BODY_LIMIT_BYTES with 413 and the error body, and sends nothing', async () => {
      const message = `too big ${'x'.repeat(3000)}`;
      const res = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: admin, room_id: roomId, from: 'Big', message });
      expectError(res, 413, 'Request Entity Too Large', /2048/);
      expectRateLimitHeaders(res);
      expect((await recent()).some((m) => m.message.startsWith('too big'))).toBe(false);
    });

    it('answers 413 in XML when the query asks for XML', async () => {
      const res = await call(stack.baseUrl, 'rooms/message', {
        verb: 'POST', query: { format: 'xml' }, form: { auth_token: admin, room_id: roomId, from: 'Big', message: 'y'.repeat(3000) },
      });
      expectXmlError(res, 413, 'Request Entity Too Large');
    });

    it('accepts a body under the limit', async () => {
      const res = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: admin, room_id: roomId, from: 'Small', message: 'z'.repeat(1500) });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
    });
  });
});

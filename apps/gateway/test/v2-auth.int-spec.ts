import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awayFromWindowEnd, Stack, startStack } from '../../../test/support/harness';
import { expectRetryAfter } from './gateway-helpers';
import { v2, v2Session, V2Session } from './v2-helpers';

// A long window makes crossing a window boundary in mid-test practically impossible.
const LIMITS = { V2_RATE_LIMIT_MAX: '4', V2_RATE_LIMIT_WINDOW_SECONDS: '3600' };

const errorOf = (res: { status: number; json: any }) => ({ status: res.status, code: res.json.error.code, type: res.json.error.type, message: res.json.error.message });

describe('v2 authentication, scopes and rate limit (real services, two gateway replicas)', () => {
  // Its scenarios count requests to a limit within one window (an hour's).
  beforeEach(() => awayFromWindowEnd(3600));

  let stack: Stack;
  let second: string;
  let s: V2Session;

  beforeAll(async () => {
    stack = await startStack({ gateway: LIMITS, rooms: true });
    second = await stack.addGateway(LIMITS);
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('serves the capabilities document without a token, even with an empty one', async () => {
    for (const query of [{}, { auth_token: '', token: '' }] as Array<Record<string, string>>) {
      const res = await v2(stack.baseUrl, 'GET', 'capabilities', { query });
      expect(res.status).toBe(200);
      const base = 'http://127.0.0.1:8080';
      expect(res.json.links).toEqual({ self: `${base}/v2/capabilities`, api: `${base}/v2`, homepage: `${base}/` });
      expect(res.json.capabilities.oauth2Provider).toEqual({ tokenUrl: `${base}/v2/oauth/token`, authorizationUrl: `${base}/users/authorize` });
    }
  });

  it('serves the picture every user record\'s photo_url names', async () => {
    const user = await v2(stack.baseUrl, 'GET', `user/${s.adminId}`, { token: s.token });
    const photo = new URL(user.json.photo_url as string);
    expect(photo.pathname).toBe('/img/silhouette_125.png');
    const res = await fetch(`${stack.baseUrl}${photo.pathname}`);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'image/png', 'public, max-age=86400']);
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([125, 125]);
  });

  it('answers the capabilities authorizationUrl: the authorization-code flow is not offered, and says what is', async () => {
    // An add-on sends the user's browser there; it answered 404, as if the document linked to nothing.
    const res = await fetch(`${stack.baseUrl}/users/authorize?response_type=code&client_id=abc&redirect_uri=https%3A%2F%2Faddon.example%2Fcb`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('location')).toBeNull();
    const text = await res.text();
    expect(text.split('\n')[0]).toBe('unsupported_response_type');
    expect(text).toContain('POST http://127.0.0.1:8080/v2/oauth/token');
    expect(text).toContain('token create --type personal');
  });

  it('documents every v2 operation in an OpenAPI 3.1 document generated from the routes, and shows it as a page', async () => {
    const res = await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json() as any;
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(doc.paths).flatMap(([path, verbs]) => Object.keys(verbs as object).map((v) => `${v.toUpperCase()} ${path}`));
    expect(ops).toEqual(expect.arrayContaining([
      'GET /v2/capabilities', 'POST /v2/room', 'GET /v2/room', 'GET /v2/room/{room}', 'PUT /v2/room/{room}', 'DELETE /v2/room/{room}',
      'PUT /v2/room/{room}/topic', 'POST /v2/room/{room}/message', 'POST /v2/room/{room}/notification', 'POST /v2/room/{room}/share/file',
      'GET /v2/room/{room}/history', 'GET /v2/room/{room}/history/latest', 'GET /v2/room/{room}/member', 'PUT /v2/room/{room}/member/{user}',
      'DELETE /v2/room/{room}/member/{user}', 'POST /v2/room/{room}/invite/{user}', 'GET /v2/room/{room}/participant',
      'PUT /v2/room/{room}/participant/{user}', 'DELETE /v2/room/{room}/participant/{user}', 'POST /v2/user', 'GET /v2/user',
      'GET /v2/user/{user}', 'PUT /v2/user/{user}', 'DELETE /v2/user/{user}', 'POST /v2/user/{user}/message', 'GET /v2/emoticon',
    ]));
    // The v1 methods too, each parameter it reads documented.
    expect(ops).toEqual(expect.arrayContaining(['GET /v1/rooms/message', 'POST /v1/rooms/message', 'POST /v1/rooms/create', 'GET /v1/users/list']));
    const v1Message = doc.paths['/v1/rooms/message'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(v1Message.required).toEqual(expect.arrayContaining(['auth_token', 'room_id', 'from', 'message']));
    expect(Object.keys(v1Message.properties)).toEqual(expect.arrayContaining(['message_format', 'notify', 'color']));
    const notification = doc.paths['/v2/room/{room}/notification'].post;
    expect(notification.requestBody.content['application/json'].schema.properties.color.enum).toContain('random');
    expect(Object.keys(notification.responses)).toEqual(expect.arrayContaining(['204', '400', '401', '403', '429']));
    // The page is Swagger UI over that document, bundled with the console (npm run build), no inline script.
    const page = await fetch(`${stack.baseUrl}/docs/api/v2`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toMatch(/<script src="\/assets\/swagger-ui-bundle-[0-9a-f]+\.js" defer><\/script>/);
    expect(html).not.toMatch(/<script>|<script[^>]*>[^<]/);
  });

  it('answers 401 without a token, with an unknown one, and with a v1 token', async () => {
    const none = await v2(stack.baseUrl, 'GET', 'room');
    expect(errorOf(none)).toMatchObject({ status: 401, code: 401, type: 'Unauthorized' });
    expect(none.json.error.message).toMatch(/Bearer/);
    expect(errorOf(await v2(stack.baseUrl, 'GET', 'room', { token: 'x'.repeat(40) }))).toMatchObject({ status: 401, message: expect.stringMatching(/^Invalid OAuth session/) });
    expect((await v2(stack.baseUrl, 'GET', 'room', { token: s.v1Admin })).status).toBe(401);
  });

  it('accepts the token as Bearer or as auth_token, and v2 tokens are refused on v1', async () => {
    const token = await s.personalToken(s.adminId, ['view_group']);
    expect((await v2(stack.baseUrl, 'GET', 'room', { token })).status).toBe(200);
    expect((await v2(stack.baseUrl, 'GET', 'room', { token, tokenInQuery: true })).status).toBe(200);
    const v1 = await fetch(`${stack.baseUrl}/v1/rooms/list?auth_token=${token}`);
    expect(v1.status).toBe(401);
  });

  it('answers 403 naming the scope the token lacks', async () => {
    const token = await s.personalToken(s.adminId, ['send_message']);
    const res = await v2(stack.baseUrl, 'GET', 'room', { token });
    expect(errorOf(res)).toMatchObject({ status: 403, type: 'Forbidden' });
    expect(res.json.error.message).toMatch(/view_group/);
  });

  it('counts 4 requests per token across both replicas, then answers 429 with the headers and Retry-After', async () => {
    const token = await s.personalToken(s.adminId, ['view_group']);
    const seen = [];
    for (let i = 0; i < 4; i++) {
      const res = await v2(i % 2 ? second : stack.baseUrl, 'GET', 'room', { token });
      expect(res.status).toBe(200);
      seen.push(res.headers.get('x-ratelimit-remaining'));
      expect(res.headers.get('x-ratelimit-limit')).toBe('4');
      expect(Number(res.headers.get('x-ratelimit-reset')) % 3600).toBe(0);
    }
    expect(seen).toEqual(['3', '2', '1', '0']);
    const past = await v2(second, 'GET', 'room', { token });
    expect(errorOf(past)).toMatchObject({ status: 429, type: 'Too Many Requests' });
    expect(past.headers.get('x-ratelimit-remaining')).toBe('0');
    expectRetryAfter(past, 3600);
  });

  it('sends the rate-limit headers with a body it cannot read too (malformed JSON 400, a content type it does not take 415)', async () => {
    const token = await s.personalToken(s.adminId, ['manage_rooms']);
    const malformed = await v2(stack.baseUrl, 'POST', 'room', { token, body: '{' });
    const plain = await v2(stack.baseUrl, 'POST', 'room', { token, body: 'x', headers: { 'content-type': 'text/plain' } });
    expect([errorOf(malformed).status, errorOf(plain).status]).toEqual([400, 415]);
    expect([malformed, plain].map((r) => [r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')])).toEqual([['4', '3'], ['4', '2']]);
  });

  it('limits the routes served without a token per client address, across replicas: 429 in the v2 body, Retry-After and the headers', async () => {
    // Behind a trusted proxy (127.0.0.1), so that the test can speak from several addresses.
    const PUBLIC = { ...LIMITS, PUBLIC_RATE_LIMIT_MAX: '4', PUBLIC_RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY: '127.0.0.1' };
    const [a, b] = [await stack.addGateway(PUBLIC), await stack.addGateway(PUBLIC)];
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const answers = [
      await v2(a, 'GET', 'capabilities', { query: { auth_token: '', token: '' }, headers: from('203.0.113.50') }),
      await v2(b, 'POST', 'oauth/token', { body: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'wrong' }, headers: from('203.0.113.50') }),
      await v2(a, 'POST', 'session', { body: { email: 'nobody@example.com', password: 'wrong' }, headers: from('203.0.113.50') }),
      await v2(b, 'DELETE', 'session', { headers: from('203.0.113.50') }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 401, 204]);
    expect(answers.map((r) => [r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')])).toEqual([['4', '3'], ['4', '2'], ['4', '1'], ['4', '0']]);
    for (const [base, verb, path] of [[a, 'GET', 'capabilities'], [b, 'POST', 'oauth/token'], [a, 'POST', 'session']]) {
      const past = await v2(base, verb, path, { body: verb === 'POST' ? {} : undefined, headers: from('203.0.113.50') });
      expect(errorOf(past)).toEqual({ status: 429, code: 429, type: 'Too Many Requests', message: expect.stringMatching(/^This address has exceeded the rate limit of 4 requests per 60 minutes/) });
      expect(past.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(past.headers.get('x-ratelimit-reset')) % 3600).toBe(0);
      expectRetryAfter(past, 3600);
    }
    // Another address, and a token on the routes that take one, are counted apart.
    expect((await v2(a, 'GET', 'capabilities', { headers: from('198.51.100.50') })).status).toBe(200);
    expect((await v2(b, 'GET', 'room', { token: await s.personalToken(s.adminId, ['view_group']), headers: from('203.0.113.50') })).status).toBe(200);
  });

  it('stops honouring a personal token once its user is deleted', async () => {
    const id = await s.createUser('Short Lived');
    const token = await s.personalToken(id, ['view_group']);
    expect((await v2(stack.baseUrl, 'GET', 'room', { token })).status).toBe(200);
    // The gateway's cache is bypassed by a fresh replica: what the rooms service answers matters.
    const del = await v2(stack.baseUrl, 'DELETE', `user/${id}`, { token: s.token });
    expect(del.status).toBe(204);
    const fresh = await stack.addGateway(LIMITS);
    expect((await v2(fresh, 'GET', 'room', { token })).status).toBe(401);
  });
});

describe('v2 over HTTPS (TLS_CERT_FILE and TLS_KEY_FILE)', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    stack = await startStack({ gateway: { TLS_CERT_FILE: join(dir, 'cert.pem'), TLS_KEY_FILE: join(dir, 'key.pem') }, rooms: true });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API over TLS', async () => {
    const port = new URL(stack.baseUrl).port;
    const body = await new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/v2/capabilities', rejectUnauthorized: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`status ${res.statusCode}`))));
      }).on('error', reject).end();
    });
    expect(JSON.parse(body).links.api).toMatch(/\/v2$/);
  });
});

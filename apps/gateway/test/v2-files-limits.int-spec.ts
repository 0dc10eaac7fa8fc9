import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awayFromWindowEnd, EventCapture, readResponse, Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { expectRetryAfter } from './gateway-helpers';
import { v2, v2Session, V2Session } from './v2-helpers';

const LINK_SECRET = 'test-file-link-secret-0123456789abcdef';
const HOUR = '3600';
/**
 * The limited replica: 3 files per token, 3 per address without credentials, 2 unknown tokens
 * per address, in hour-long windows (a token's /v2 requests: 1,000); behind a trusted proxy
 * (127.0.0.1), so that each scenario speaks from addresses of its own.
 */
const LIMITS = {
  FILE_RATE_LIMIT_MAX: '3', FILE_RATE_LIMIT_WINDOW_SECONDS: HOUR, V2_RATE_LIMIT_MAX: '1000', V2_RATE_LIMIT_WINDOW_SECONDS: HOUR,
  PUBLIC_RATE_LIMIT_MAX: '3', PUBLIC_RATE_LIMIT_WINDOW_SECONDS: HOUR,
  AUTH_FAILURE_RATE_LIMIT_MAX: '2', AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: HOUR,
  TRUST_PROXY: '127.0.0.1',
};
const COOKIE = /chat_session=([^;]+)/;

describe('GET /files rate limits (real services)', () => {
  // Its scenarios count requests to a limit within one window (an hour's).
  beforeEach(() => awayFromWindowEnd(3600));

  let stack: Stack;
  let limited: string;
  let s: V2Session;
  let capture: EventCapture;
  let dir: string;
  /** Signed URLs (room_file_upload's) of a public room's file and a private room's. */
  let publicUrl: string;
  let privateUrl: string;
  let password: { email: string; password: string };

  /** `url` names the configured public base; the limited replica listens elsewhere. */
  const get = async (url: string, opts: { from: string; token?: string; cookie?: string; signed?: boolean }): Promise<V1Response> => {
    const parsed = new URL(url);
    const headers: Record<string, string> = { 'x-forwarded-for': opts.from };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    return readResponse(await fetch(`${limited}${parsed.pathname}${opts.signed ? parsed.search : ''}`, { headers }));
  };
  const counted = (res: V1Response) => [res.status, res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'v2-files-limits-'));
    const files = { FILE_STORAGE_DIR: dir, FILE_LINK_SECRET: LINK_SECRET };
    stack = await startStack({ gateway: files, rooms: true });
    limited = await stack.addGateway({ ...files, ...LIMITS });
    s = await v2Session(stack);
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    // A group admin with a password, for the console session: they read every room's files.
    password = { email: `files-limits${Date.now()}@example.com`, password: 'correct horse 1' };
    expect((await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: s.v1Admin, name: 'Files Admin', ...password, is_group_admin: '1' })).status).toBe(200);
    const shareIn = async (privacy: string, name: string) => {
      const room = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: s.v1Admin, name: `${privacy} files`, owner_user_id: s.adminId, privacy });
      const body = new FormData();
      body.append('file', new Blob([`${privacy} bytes`], { type: 'text/plain' }), name);
      const res = await fetch(`${stack.baseUrl}/v2/room/${room.json.room.room_id}/share/file`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` }, body });
      expect(res.status).toBe(204);
      return (await capture.waitFor('room.file-uploaded.v2', (e) => e.payload.file.name === name)).payload.file.url as string;
    };
    publicUrl = await shareIn('public', 'open.txt');
    privateUrl = await shareIn('private', 'closed.txt');
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts a file asked with a token by that token\'s files budget, with its headers; past it, 429 in the v2 body with Retry-After', async () => {
    const token = await s.personalToken(s.adminId, ['view_messages', 'view_group']);
    const answers = [
      await get(privateUrl, { from: '203.0.113.71', token }),
      await get(publicUrl, { from: '203.0.113.72', token }),
    ];
    expect(answers.map(counted)).toEqual([[200, '3', '2'], [200, '3', '1']]);
    expect(Number(answers[0].headers.get('x-ratelimit-reset')) % 3600).toBe(0);
    expect(counted(await get(publicUrl, { from: '203.0.113.72', token }))).toEqual([200, '3', '0']);
    // Apart from the token's /v2 requests: images shown again and again do not spend what API calls need.
    expect(counted(await v2(limited, 'GET', 'room', { token }))).toEqual([200, '1000', '999']);

    const past = await get(privateUrl, { from: '203.0.113.71', token });
    expect(past.status).toBe(429);
    expect(past.json).toEqual({ error: { code: 429, type: 'Too Many Requests', message: expect.stringMatching(/^You have exceeded the rate limit of 3 requests per 60 minutes for files; it resets at /) } });
    expect(past.headers.get('x-ratelimit-remaining')).toBe('0');
    expectRetryAfter(past, 3600);
    // Another token has a count of its own.
    expect(counted(await get(privateUrl, { from: '203.0.113.71', token: await s.personalToken(s.adminId, ['view_messages']) }))).toEqual([200, '3', '2']);
  });

  it('counts a file asked with a console session by the session\'s files budget', async () => {
    const signedIn = await fetch(`${stack.baseUrl}/v2/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(password) });
    expect(signedIn.status).toBe(201);
    const cookie = `chat_session=${COOKIE.exec(signedIn.headers.get('set-cookie') ?? '')![1]}`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(privateUrl, { from: `203.0.113.${73 + i}`, cookie }));
    expect(answers.map(counted)).toEqual([[200, '3', '2'], [200, '3', '1'], [200, '3', '0'], [429, '3', '0']]);
    expectRetryAfter(answers[3], 3600);
  });

  it('counts a file asked without credentials (a public room\'s, a signed link) by the client address\'s limit', async () => {
    const from = '203.0.113.80';
    const answers = [
      await get(publicUrl, { from }),
      await get(privateUrl, { from, signed: true }),
      await get(publicUrl, { from, signed: true }),
    ];
    expect(answers.map(counted)).toEqual([[200, '3', '2'], [200, '3', '1'], [200, '3', '0']]);
    const past = await get(privateUrl, { from, signed: true });
    expect(past.status).toBe(429);
    expect(past.json.error).toEqual({ code: 429, type: 'Too Many Requests', message: expect.stringMatching(/^This address has exceeded the rate limit of 3 requests per 60 minutes for files asked without credentials; it resets at /) });
    expectRetryAfter(past, 3600);
    // Another address is counted apart.
    expect(counted(await get(publicUrl, { from: '198.51.100.80' }))).toEqual([200, '3', '2']);
  });

  it('counts unknown tokens against the address; past that limit, 429 before any lookup, a valid token not yet known too', async () => {
    const from = '203.0.113.81';
    for (let i = 0; i < 2; i++) {
      const unknown = await get(publicUrl, { from, token: `unknown-${i}` });
      expect(unknown.status).toBe(401);
      expect(unknown.json.error.message).toMatch(/^Invalid OAuth session/);
    }
    const past = await get(publicUrl, { from, token: 'unknown-2' });
    expect(past.status).toBe(429);
    expect(past.json.error).toEqual({ code: 429, type: 'Too Many Requests', message: expect.stringMatching(/^Too many requests with unknown tokens from this address: try again in \d+ seconds\.$/) });
    expect([past.headers.get('x-ratelimit-limit'), past.headers.get('x-ratelimit-remaining')]).toEqual(['2', '0']);
    expectRetryAfter(past, 3600);
    // A valid token this replica has not seen would need a lookup: refused; one its cache knows is served.
    expect((await get(privateUrl, { from, token: await s.personalToken(s.adminId) })).status).toBe(429);
    expect((await get(privateUrl, { from, token: s.token })).status).toBe(200);
    // Without a token nothing is looked up: the public file is still served to that address.
    expect((await get(publicUrl, { from })).status).toBe(200);
  });
});

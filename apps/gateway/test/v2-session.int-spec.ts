import { hashApiToken } from '@app/common';
import { DataSource } from 'typeorm';
import { awayFromWindowEnd, readResponse, Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { expectError, expectJson } from './gateway-helpers';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

/**
 * The web console's sign-in (issue 14): sessions in a cookie, CSRF on changes, throttled
 * sign-in, sessions ending on sign-out, password change and deletion on every replica at
 * once, and the tokens API. Real rooms service, Postgres, RabbitMQ and Redis; two gateway
 * replicas.
 */
const LIMITS = {
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3', SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: '1000', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '1000',
  // Counts are kept in windows aligned on multiples of their length: an hour's makes a scenario
  // that straddles a window's end (and so loses its counts) as rare as the other limits' tests make it.
  SIGN_IN_WINDOW: '1h', SESSION_TTL: '1h',
};
const COOKIE = /^chat_session=([A-Za-z0-9]{40}); HttpOnly; SameSite=Lax; Path=\/; Max-Age=3600$/;

interface Signed { cookie: string; secret: string; csrf: string; body: any }

describe('console sign-in sessions and the tokens API (two gateways, real rooms service, Postgres, RabbitMQ, Redis)', () => {
  let stack: Stack;
  let other: string;
  let s: V2Session;
  let n = 0;

  const email = () => `console${Date.now()}${n++}@example.com`;
  const postJson = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) => fetch(`${base}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
  }).then(readResponse);
  const signInRaw = (address: string, password: string, base = stack.baseUrl) => postJson(base, '/v2/session', { email: address, password });
  async function signIn(address: string, password: string, base = stack.baseUrl): Promise<Signed> {
    const res = await signInRaw(address, password, base);
    const body = expectJson(res, 201);
    const secret = COOKIE.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (!secret) throw new Error(`unexpected Set-Cookie: ${res.headers.get('set-cookie')}`);
    return { cookie: `chat_session=${secret}`, secret, csrf: body.csrf_token, body };
  }
  /** A v2 call with the session cookie (and the CSRF token when `csrf`). */
  const asSession = (who: Signed, verb: string, path: string, opts: V2CallOptions & { csrf?: string | false; base?: string } = {}) =>
    v2(opts.base ?? stack.baseUrl, verb, path, {
      ...opts, headers: { cookie: `theme=dark; ${who.cookie}`, ...(opts.csrf === false ? {} : { 'x-csrf-token': opts.csrf ?? who.csrf }), ...opts.headers },
    });
  async function newUser(extra: Record<string, string> = {}): Promise<{ id: number; email: string; password: string }> {
    const address = email();
    const res = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: s.v1Admin, name: `Console User ${n}`, email: address, password: 'correct horse 1', ...extra });
    return { id: expectJson(res, 200).user.user_id, email: address, password: 'correct horse 1' };
  }
  const expect204 = (res: V1Response) => expect({ status: res.status, body: res.text }).toEqual({ status: 204, body: '' });
  const ended = async (who: Signed) => {
    for (const base of [stack.baseUrl, other]) expectError(await asSession(who, 'GET', 'room', { base }), 401, 'Unauthorized', /session has ended/);
  };

  beforeAll(async () => {
    stack = await startStack({ gateway: LIMITS, rooms: true });
    other = await stack.addGateway(LIMITS);
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('signing in', () => {
    // Each scenario counts guesses to a limit within one window of SIGN_IN_WINDOW.
    beforeEach(() => awayFromWindowEnd(3600));

    it('signs in a user made by v1 users/create with its password: the cookie exactly, who, the CSRF token, the expiry', async () => {
      const u = await newUser();
      const res = await signInRaw(u.email.toUpperCase(), u.password);
      const body = expectJson(res, 201);
      expect(res.headers.get('set-cookie')).toMatch(COOKIE);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(body)).toEqual(['user', 'csrf_token', 'expires']);
      expect(body.user).toEqual({ id: u.id, name: expect.any(String), mention_name: expect.any(String), email: u.email, is_group_admin: false });
      expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Math.abs(Date.parse(body.expires) - (Date.now() + 3_600_000))).toBeLessThan(60_000);
      // Only the secret's hash is stored, as a session of that user.
      const secret = COOKIE.exec(res.headers.get('set-cookie')!)![1];
      const rows = await stack.rooms!.get(DataSource).query('SELECT kind, user_id FROM api_tokens WHERE token_hash = $1', [hashApiToken(secret)]);
      expect(rows).toEqual([{ kind: 'session', user_id: u.id }]);
    });

    it('answers a wrong password and an unknown address alike (401), and names a missing or wrong field (400)', async () => {
      const u = await newUser();
      const wrong = await signInRaw(u.email, 'not the password');
      const unknown = await signInRaw(email(), 'not the password');
      expectError(wrong, 401, 'Unauthorized', 'Wrong e-mail address or password.');
      expect(unknown.text).toBe(wrong.text);
      expect(wrong.headers.get('set-cookie')).toBeNull();
      expectError(await postJson(stack.baseUrl, '/v2/session', { password: 'x' }), 400, 'Bad Request', /^email: /);
      expectError(await postJson(stack.baseUrl, '/v2/session', { email: u.email, password: 12 }), 400, 'Bad Request', /^password: /);
    });

    it('takes JSON only (a form of another site cannot sign a visitor in)', async () => {
      const u = await newUser();
      const res = await fetch(`${stack.baseUrl}/v2/session`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: u.email, password: u.password }),
      }).then(readResponse);
      expectError(res, 415, 'Unsupported Media Type');
    });

    it('throttles an account from an address after 3 failures (429 with Retry-After, on every replica, even with the right password); others go on', async () => {
      const u = await newUser();
      const bystander = await newUser();
      for (let i = 0; i < 3; i++) expectError(await signInRaw(u.email, `wrong ${i}`, i % 2 ? other : stack.baseUrl), 401, 'Unauthorized');
      for (const base of [stack.baseUrl, other]) {
        const res = await signInRaw(u.email, u.password, base);
        expectError(res, 429, 'Too Many Requests', /Too many failed sign-ins of this account from this address/);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      }
      await signIn(bystander.email, bystander.password);
    });

    it('counts a guess before its password is checked: of 50 concurrent wrong guesses on two replicas, 3 are checked, the rest refused (429, Retry-After), the right password too', async () => {
      const u = await newUser();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => signInRaw(u.email, `wrong ${i}`, i % 2 ? other : stack.baseUrl)));
      // 401 is the answer of a checked password, 429 of a guess refused before its check.
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(3).fill(401), ...Array(47).fill(429)]);
      for (const refused of answers.filter((a) => a.status === 429)) {
        expectError(refused, 429, 'Too Many Requests', /of this account from this address/);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expectError(await signInRaw(u.email, u.password), 429, 'Too Many Requests');
    });

    it('forgets an account\'s failures when it signs in', async () => {
      const u = await newUser();
      for (let i = 0; i < 2; i++) expectError(await signInRaw(u.email, 'wrong'), 401, 'Unauthorized');
      await signIn(u.email, u.password);
      for (let i = 0; i < 2; i++) expectError(await signInRaw(u.email, 'wrong'), 401, 'Unauthorized');
      await signIn(u.email, u.password);
    });

    it('throttles a client address across accounts; behind a trusted proxy, by X-Forwarded-For', async () => {
      const proxied = await stack.addGateway({ ...LIMITS, SIGN_IN_MAX_FAILURES_PER_ADDRESS: '2', TRUST_PROXY: '127.0.0.1' });
      const from = (address: string, who: string) => postJson(proxied, '/v2/session', { email: who, password: 'wrong' }, { 'x-forwarded-for': address });
      expectError(await from('203.0.113.7', email()), 401, 'Unauthorized');
      expectError(await from('203.0.113.7', email()), 401, 'Unauthorized');
      const refused = await from('203.0.113.7', email());
      expectError(refused, 429, 'Too Many Requests', /from this address/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expectError(await from('203.0.113.8', email()), 401, 'Unauthorized');
    });

    it('refuses the attacker\'s address, not the real user from theirs; and the account from everywhere once its wider budget is spent', async () => {
      const proxied = await stack.addGateway({ ...LIMITS, SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: '5', TRUST_PROXY: '127.0.0.1' });
      const from = (address: string, who: { email: string }, password: string) =>
        postJson(proxied, '/v2/session', { email: who.email, password }, { 'x-forwarded-for': address });
      const u = await newUser();
      for (let i = 0; i < 3; i++) expectError(await from('203.0.113.20', u, `guess ${i}`), 401, 'Unauthorized');
      expectError(await from('203.0.113.20', u, u.password), 429, 'Too Many Requests', /of this account from this address/);
      expect((await from('198.51.100.20', u, u.password)).status).toBe(201);
      // The account-wide budget (5) is what guesses from many addresses spend: 3 above, 2 more here.
      for (let i = 0; i < 2; i++) expectError(await from(`203.0.113.${30 + i}`, u, `guess ${i}`), 401, 'Unauthorized');
      const refused = await from('198.51.100.21', u, u.password);
      expectError(refused, 429, 'Too Many Requests', /Too many failed sign-ins of this account: try again in \d+ seconds/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('believes X-Forwarded-For only as far as TRUST_PROXY goes: a client rotating it gains no guesses', async () => {
      const u = await newUser();
      // No proxy is trusted: the header is ignored, every guess comes from the socket's address.
      for (let i = 0; i < 3; i++) expectError(await postJson(stack.baseUrl, '/v2/session', { email: u.email, password: 'wrong' }, { 'x-forwarded-for': `192.0.2.${i}` }), 401, 'Unauthorized');
      expectError(await postJson(stack.baseUrl, '/v2/session', { email: u.email, password: 'wrong' }, { 'x-forwarded-for': '192.0.2.99' }), 429, 'Too Many Requests');
      // Behind a trusted proxy, the address the proxy appended counts, not what the client wrote before it.
      const proxied = await stack.addGateway({ ...LIMITS, TRUST_PROXY: '127.0.0.1' });
      const v = await newUser();
      for (let i = 0; i < 3; i++) {
        expectError(await postJson(proxied, '/v2/session', { email: v.email, password: 'wrong' }, { 'x-forwarded-for': `192.0.2.${i}, 203.0.113.40` }), 401, 'Unauthorized');
      }
      expectError(await postJson(proxied, '/v2/session', { email: v.email, password: 'wrong' }, { 'x-forwarded-for': '192.0.2.99, 203.0.113.40' }), 429, 'Too Many Requests');
    });

    it('marks the cookie Secure when the public base URL is https, or a trusted proxy says https (and only then)', async () => {
      const u = await newUser();
      const https = await stack.addGateway({ ...LIMITS, PUBLIC_BASE_URL: 'https://chat.example.com' });
      expect((await signInRaw(u.email, u.password, https)).headers.get('set-cookie')).toMatch(/; Secure$/);
      const proxied = await stack.addGateway({ ...LIMITS, TRUST_PROXY: '127.0.0.1' });
      const behind = await postJson(proxied, '/v2/session', { email: u.email, password: u.password }, { 'x-forwarded-proto': 'https' });
      expect(behind.headers.get('set-cookie')).toMatch(/; Secure$/);
      const untrusted = await postJson(stack.baseUrl, '/v2/session', { email: u.email, password: u.password }, { 'x-forwarded-proto': 'https' });
      expect(untrusted.headers.get('set-cookie')).toMatch(COOKIE);
    });
  });

  describe('using the session', () => {
    let admin: Signed;

    beforeAll(async () => {
      await v1(stack.baseUrl, 'POST', 'users/update', { auth_token: s.v1Admin, user_id: s.adminId, password: 'admin password 1' });
      admin = await signIn(s.adminEmail, 'admin password 1');
    });

    it('tells who is signed in (GET /v2/session), with the same CSRF token; 401 without the cookie or with a token', async () => {
      const res = expectJson(await asSession(admin, 'GET', 'session', { csrf: false }), 200);
      expect(res).toEqual({ ...admin.body, user: { ...admin.body.user, is_group_admin: true } });
      expectError(await v2(stack.baseUrl, 'GET', 'session'), 401, 'Unauthorized');
      expectError(await v2(stack.baseUrl, 'GET', 'session', { token: s.token }), 401, 'Unauthorized', /not the session cookie/);
    });

    it('acts as the user on any v2 operation: reads without a CSRF token, changes only with the right one (403 otherwise)', async () => {
      expectJson(await asSession(admin, 'GET', 'room', { csrf: false }), 200);
      const create = (csrf?: string | false) => asSession(admin, 'POST', 'room', { csrf, body: { name: `Console ${Date.now()}${n++}` } });
      expectError(await create(false), 403, 'Forbidden', /X-CSRF-Token.*missing/);
      expectError(await create('wrong'), 403, 'Forbidden', /X-CSRF-Token.*wrong/);
      const room = expectJson(await create(), 201);
      const shown = expectJson(await asSession(admin, 'GET', `room/${room.id}`, { csrf: false }), 200);
      expect(shown.owner.id).toBe(s.adminId);
    });

    it('lets a bearer token win over the cookie, without a CSRF token', async () => {
      const user = await newUser();
      const session = await signIn(user.email, user.password);
      // The cookie's user may not create users; the admin's token may: the token is who acts.
      const res = await asSession(session, 'POST', 'user', { csrf: false, token: s.token, body: { name: 'Made By Token', email: email() } });
      expectJson(res, 201);
    });

    it('has the scopes a personal token of its user may have: admin_group for group admins only', async () => {
      const user = await newUser();
      const session = await signIn(user.email, user.password);
      expectError(await asSession(session, 'POST', 'user', { body: { name: 'Nope', email: email() } }), 403, 'Forbidden', /session does not have the scope admin_group/);
      expectJson(await asSession(admin, 'POST', 'user', { body: { name: 'By Admin Session', email: email() } }), 201);
    });

    it('is never a token: not as a bearer on v2, nor on v1', async () => {
      expectError(await v2(stack.baseUrl, 'GET', 'room', { token: admin.secret }), 401, 'Unauthorized');
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin.secret }), 401, 'Unauthorized');
    });
  });

  describe('ending sessions', () => {
    it('signs out: 403 without the CSRF token; then 204, the cookie cleared, and refused at once on both replicas', async () => {
      const u = await newUser();
      const session = await signIn(u.email, u.password);
      for (const base of [stack.baseUrl, other]) expectJson(await asSession(session, 'GET', 'room', { base }), 200); // both have it cached
      expectError(await asSession(session, 'DELETE', 'session', { csrf: false }), 403, 'Forbidden', /X-CSRF-Token/);
      const out = await asSession(session, 'DELETE', 'session');
      expect204(out);
      expect(out.headers.get('set-cookie')).toBe('chat_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0');
      await ended(session);
      // Signing out again, or without a session, still clears the cookie.
      expect204(await asSession(session, 'DELETE', 'session', { csrf: false }));
      expect204(await v2(stack.baseUrl, 'DELETE', 'session'));
    });

    it('ends every session of a user whose password a group admin changes (v2 PUT), at once on both replicas', async () => {
      const u = await newUser();
      const first = await signIn(u.email, u.password);
      const second = await signIn(u.email, u.password, other);
      for (const base of [stack.baseUrl, other]) expectJson(await asSession(first, 'GET', 'room', { base }), 200);
      expect204(await v2(other, 'PUT', `user/${u.id}`, { token: s.token, body: { name: 'Renamed', email: u.email, password: 'a new password 2' } }));
      await ended(first);
      await ended(second);
      expectError(await signInRaw(u.email, u.password), 401, 'Unauthorized');
      await signIn(u.email, 'a new password 2');
    });

    it('keeps sessions when a user is changed without a new password', async () => {
      const u = await newUser();
      const session = await signIn(u.email, u.password);
      expect204(await v2(stack.baseUrl, 'PUT', `user/${u.id}`, { token: s.token, body: { name: 'Still Signed In', email: u.email } }));
      expectJson(await asSession(session, 'GET', 'room'), 200);
    });

    it('ends the sessions of a deleted user, and forgets their personal tokens, at once on both replicas', async () => {
      const u = await newUser();
      const session = await signIn(u.email, u.password);
      const token = await s.personalToken(u.id, ['view_group']);
      for (const base of [stack.baseUrl, other]) {
        expectJson(await asSession(session, 'GET', 'room', { base }), 200);
        expectJson(await v2(base, 'GET', 'room', { token }), 200);
      }
      expect204(await v2(stack.baseUrl, 'DELETE', `user/${u.id}`, { token: s.token }));
      await ended(session);
      for (const base of [stack.baseUrl, other]) expectError(await v2(base, 'GET', 'room', { token }), 401, 'Unauthorized');
      expectError(await signInRaw(u.email, u.password), 401, 'Unauthorized');
    });
  });

  describe('the tokens API', () => {
    let user: { id: number; email: string; password: string };
    let session: Signed;

    beforeAll(async () => {
      user = await newUser();
      session = await signIn(user.email, user.password);
    });

    it('creates a personal token (shown once) that works as a bearer token at once, lists it without its clear text, revokes it everywhere at once', async () => {
      const made = expectJson(await asSession(session, 'POST', 'token', { body: { label: 'my script', scopes: ['view_group', 'send_message'] } }), 201);
      expect(made).toEqual({ id: expect.any(Number), label: 'my script', kind: 'personal', scopes: ['view_group', 'send_message'], created: expect.any(String), user_id: user.id, token: expect.stringMatching(/^[A-Za-z0-9]{40}$/) });
      for (const base of [stack.baseUrl, other]) expectJson(await v2(base, 'GET', 'room', { token: made.token }), 200);
      const list = expectJson(await asSession(session, 'GET', 'token', { csrf: false }), 200);
      const { token: clear, ...item } = made;
      expect(list.items).toEqual([item]);
      expect(list.links.self).toMatch(/\/v2\/token$/);
      expect(JSON.stringify(list)).not.toContain(clear);
      expect204(await asSession(session, 'DELETE', `token/${made.id}`));
      for (const base of [stack.baseUrl, other]) expectError(await v2(base, 'GET', 'room', { token: clear }), 401, 'Unauthorized');
      expect(expectJson(await asSession(session, 'GET', 'token', { csrf: false }), 200).items).toEqual([]);
    });

    it('lists tokens a page at a time (start-index, max-results), refusing a bad page value naming it', async () => {
      const pager = await signIn((await newUser()).email, 'correct horse 1');
      const ids: number[] = [];
      for (const label of ['one', 'two', 'three']) {
        ids.push(expectJson(await asSession(pager, 'POST', 'token', { body: { label, scopes: ['view_group'] } }), 201).id);
      }
      const first = expectJson(await asSession(pager, 'GET', 'token', { csrf: false, query: { 'max-results': 2 } }), 200);
      expect(first).toMatchObject({ startIndex: 0, maxResults: 2 });
      expect(first.items.map((t: { id: number }) => t.id)).toEqual(ids.slice(0, 2));
      expect(first.links.next).toMatch(/\/v2\/token\?start-index=2&max-results=2$/);
      const second = expectJson(await asSession(pager, 'GET', 'token', { csrf: false, query: { 'start-index': 2, 'max-results': 2 } }), 200);
      expect(second.items.map((t: { id: number }) => t.id)).toEqual(ids.slice(2));
      expect(second.links.next).toBeUndefined();
      expectError(await asSession(pager, 'GET', 'token', { csrf: false, query: { 'max-results': 'abc' } }), 400, 'Bad Request', /^max-results: /);
    });

    it('refuses a non-admin v1 tokens and admin_group (403), an unknown scope or none (400 naming scopes), a change without CSRF (403)', async () => {
      for (const kind of ['admin', 'notification']) {
        expectError(await asSession(session, 'POST', 'token', { body: { label: 'x', kind, scopes: [] } }), 403, 'Forbidden', new RegExp(`Only group admins may create ${kind} tokens`));
      }
      expectError(await asSession(session, 'POST', 'token', { body: { label: 'x', scopes: ['admin_group'] } }), 403, 'Forbidden', /admin_group/);
      expectError(await asSession(session, 'POST', 'token', { body: { label: 'x', scopes: ['view_group', 'fly'] } }), 400, 'Bad Request', /^scopes: unknown scope "fly"/);
      expectError(await asSession(session, 'POST', 'token', { body: { label: 'x' } }), 400, 'Bad Request', /^scopes: /);
      expectError(await asSession(session, 'POST', 'token', { body: { label: 'x', kind: 'room', scopes: [] } }), 400, 'Bad Request', /^kind: /);
      expectError(await asSession(session, 'POST', 'token', { csrf: false, body: { label: 'x', scopes: ['view_group'] } }), 403, 'Forbidden', /X-CSRF-Token/);
    });

    it('lets a group admin make v1 tokens and see them; a user sees only their own; someone else\'s is not found (404)', async () => {
      const admin = await signIn(s.adminEmail, 'admin password 1');
      const v1Token = expectJson(await asSession(admin, 'POST', 'token', { body: { label: 'ops', kind: 'admin' } }), 201);
      expect(v1Token).toMatchObject({ kind: 'admin', scopes: [], label: 'ops' });
      expect(v1Token.user_id).toBeUndefined();
      expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: v1Token.token }), 200);
      const adminList = expectJson(await asSession(admin, 'GET', 'token'), 200).items.map((t: any) => t.id);
      expect(adminList).toContain(v1Token.id);
      const mine = expectJson(await asSession(session, 'POST', 'token', { body: { label: 'mine', scopes: ['view_room'] } }), 201);
      expect(expectJson(await asSession(session, 'GET', 'token'), 200).items.map((t: any) => t.id)).toEqual([mine.id]);
      expect(adminList).not.toContain(mine.id);
      expectError(await asSession(session, 'DELETE', `token/${v1Token.id}`), 404, 'Not Found', `Token ${v1Token.id} not found`);
      expectError(await asSession(admin, 'DELETE', `token/${mine.id}`), 404, 'Not Found');
      expectError(await asSession(session, 'DELETE', 'token/abc'), 404, 'Not Found');
      expect204(await asSession(admin, 'DELETE', `token/${v1Token.id}`));
      expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: v1Token.token }), 401, 'Unauthorized');
    });

    it('takes a bearer token with admin_group, but not one without it (a leaked token mints no tokens)', async () => {
      expectJson(await v2(stack.baseUrl, 'GET', 'token', { token: s.token }), 200);
      const narrow = await s.personalToken(user.id, ['view_group', 'send_message']);
      expectError(await v2(stack.baseUrl, 'POST', 'token', { token: narrow, body: { label: 'x', scopes: ['view_group'] } }), 403, 'Forbidden', /admin_group/);
      expectError(await v2(stack.baseUrl, 'GET', 'token'), 401, 'Unauthorized');
    });
  });
});

/**
 * The web console's sign-in and API tokens as a browser page uses them, against the three
 * built services as processes (what `npm start` runs), logging at debug: then no secret
 * (password, session secret, CSRF token, API token) may appear in any line they wrote.
 */
import { awayFromWindowEnd } from '../support/common';
import { cli, startTestSystem, TestSystem } from '../support/processes';

describe('console sign-in and API tokens against the whole system: no secret in any log line', () => {
  let system: TestSystem;
  let baseUrl: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    system = await startTestSystem('e2e_console', { LOG_LEVEL: 'debug', SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3', SIGN_IN_WINDOW: '1h' });
    baseUrl = system.baseUrl;
  }, 60_000);

  afterAll(async () => {
    await system?.stop();
  }, 30_000);

  const form = (path: string, params: Record<string, string>) => fetch(`${baseUrl}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params),
  });
  const json = (verb: string, path: string, headers: Record<string, string>, body?: unknown) => fetch(`${baseUrl}${path}`, {
    method: verb, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  it('signs in, works with the cookie and its CSRF token, makes and revokes a token, ends on a password change', async () => {
    const v1Admin = cli(['token', 'create', '--type', 'admin'], system.env).stdout.trim();
    const email = `console-${Date.now()}@example.com`;
    const password = 'Pass phrase 7731 xyz';
    expect((await form('/v1/users/create', { auth_token: v1Admin, name: 'Console User', email, password })).status).toBe(200);
    secrets.push(v1Admin, password);

    const wrong = await json('POST', '/v2/session', {}, { email, password: `${password}-wrong` });
    expect(wrong.status).toBe(401);
    secrets.push(`${password}-wrong`);

    const signIn = await json('POST', '/v2/session', {}, { email, password });
    expect(signIn.status).toBe(201);
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^chat_session=[A-Za-z0-9]{40}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=1209600$/);
    const secret = /^chat_session=([^;]+)/.exec(cookie)![1];
    const { csrf_token: csrf } = await signIn.json() as { csrf_token: string };
    secrets.push(secret, csrf);
    const session = { cookie: `chat_session=${secret}` };

    expect((await json('GET', '/v2/session', session)).status).toBe(200);
    expect((await json('GET', '/v2/room', session)).status).toBe(200);
    expect((await json('POST', '/v2/room', session, { name: 'Console Room' })).status).toBe(403);
    expect((await json('POST', '/v2/room', { ...session, 'x-csrf-token': csrf }, { name: 'Console Room' })).status).toBe(201);

    const made = await json('POST', '/v2/token', { ...session, 'x-csrf-token': csrf }, { label: 'script', scopes: ['view_group', 'view_room'] });
    expect(made.status).toBe(201);
    const { id, token } = await made.json() as { id: number; token: string };
    secrets.push(token);
    expect((await json('GET', '/v2/room', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await json('GET', `/v2/room?auth_token=${token}`, {})).status).toBe(200);
    const list = await (await json('GET', '/v2/token', session)).text();
    expect(list).not.toContain(token);
    expect((await json('DELETE', `/v2/token/${id}`, { ...session, 'x-csrf-token': csrf })).status).toBe(204);
    expect((await json('GET', '/v2/room', { authorization: `Bearer ${token}` })).status).toBe(401);

    const changed = 'Another phrase 9942 abc';
    secrets.push(changed);
    expect((await form('/v1/users/update', { auth_token: v1Admin, user_id: email, password: changed })).status).toBe(200);
    expect((await json('GET', '/v2/room', session)).status).toBe(401);
    expect((await json('DELETE', '/v2/session', session)).status).toBe(204);
  }, 60_000);

  it('takes admin_group from a demoted group admin\'s session and tokens at once, not after the cache\'s 60 s', async () => {
    const v1Admin = cli(['token', 'create', '--type', 'admin'], system.env).stdout.trim();
    const email = `demoted-${Date.now()}@example.com`;
    const password = 'Demoted phrase 5521 qrs';
    expect((await form('/v1/users/create', { auth_token: v1Admin, name: 'Soon Demoted', email, password, is_group_admin: '1' })).status).toBe(200);
    const personal = cli(['token', 'create', '--type', 'personal', '--user', email], system.env).stdout.trim();
    const signIn = await json('POST', '/v2/session', {}, { email, password });
    expect(signIn.status).toBe(201);
    const secret = /^chat_session=([^;]+)/.exec(signIn.headers.get('set-cookie')!)![1];
    const { csrf_token: csrf } = await signIn.json() as { csrf_token: string };
    secrets.push(password, personal, secret, csrf);
    const asToken = { authorization: `Bearer ${personal}` };
    const asSession = { cookie: `chat_session=${secret}`, 'x-csrf-token': csrf };
    let n = 0;
    const createUser = (headers: Record<string, string>) =>
      json('POST', '/v2/user', headers, { name: `Made By Admin ${n}`, email: `made-${Date.now()}-${n++}@example.com` }).then((r) => r.status);
    // Both resolved and cached by the gateway, with admin_group.
    expect([await createUser(asToken), await createUser(asSession)]).toEqual([201, 201]);

    expect((await form('/v1/users/update', { auth_token: v1Admin, user_id: email, is_group_admin: '0' })).status).toBe(200);
    // user.updated.v1 reaches the gateway within milliseconds; the 60 s expiry is only a net.
    const refusedBy = Date.now() + 3_000;
    let statuses: number[] = [];
    do {
      statuses = [await createUser(asToken), await createUser(asSession)];
    } while (statuses.some((s) => s !== 403) && Date.now() < refusedBy && (await new Promise((r) => setTimeout(r, 100)), true));
    expect(statuses).toEqual([403, 403]);
    // What a member may do still works.
    expect((await json('GET', '/v2/room', asToken)).status).toBe(200);
  }, 30_000);

  it('refuses an account from an address after 3 failed sign-ins, and says so once in the log: the e-mail, never a password', async () => {
    const v1Admin = cli(['token', 'create', '--type', 'admin'], system.env).stdout.trim();
    await awayFromWindowEnd(3600);
    const email = `throttled-${Date.now()}@example.com`;
    const password = 'Another pass phrase 5517';
    expect((await form('/v1/users/create', { auth_token: v1Admin, name: 'Throttled User', email, password })).status).toBe(200);
    secrets.push(v1Admin, password);
    for (let i = 0; i < 3; i++) {
      secrets.push(`${password}-wrong-${i}`);
      expect((await json('POST', '/v2/session', {}, { email, password: `${password}-wrong-${i}` })).status).toBe(401);
    }
    const refused = await json('POST', '/v2/session', {}, { email, password });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const throttled = () => system.launched.logs((l) => String(l.msg).startsWith('sign-in throttled') && l.email === email);
    for (const deadline = Date.now() + 10_000; throttled().length === 0 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
    expect(throttled()).toEqual([expect.objectContaining({
      event: 'sign_in_throttled', email, address: '127.0.0.1', budget: 'accountAddress', limit: 3, retryAfterSeconds: expect.any(Number),
    })]);
  }, 30_000);

  it('wrote none of those secrets in any log line of any service', async () => {
    await new Promise((r) => setTimeout(r, 500)); // the last access log lines
    const output = `${system.launched.lines.join('\n')}\n${system.launched.stderr}`;
    // The run logged (so the check means something): requests, at debug level.
    expect(system.launched.logs((l) => l.msg === 'request' && l.url === '/v2/session').length).toBeGreaterThanOrEqual(2);
    expect(system.launched.logs((l) => l.msg === 'token revoked; dropped from the cache').length).toBeGreaterThanOrEqual(1);
    expect(secrets.length).toBe(16);
    for (const secret of secrets) expect({ secret, found: output.includes(secret) }).toEqual({ secret, found: false });
  });
});

import { awayFromWindowEnd, readResponse, Stack, startStack, V1Response } from '../../../test/support/harness';
import { expectError, expectRetryAfter, expectXmlError } from './gateway-helpers';
import { v2, v2Session, V2Session } from './v2-helpers';

// Behind a trusted proxy (127.0.0.1), so that each scenario speaks from addresses of its own;
// an hour-long window, so that no scenario crosses a window's end.
const LIMITS = { AUTH_FAILURE_RATE_LIMIT_MAX: '3', AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY: '127.0.0.1' };
const TOO_MANY = /^Too many requests with unknown tokens from this address: try again in \d+ seconds\.$/;

describe('failed token authentications per client address (real services, two gateway replicas)', () => {
  // Its scenarios count failures to a limit within one window (an hour's).
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

  const v1From = async (base: string, address: string, params: Record<string, string>): Promise<V1Response> =>
    readResponse(await fetch(`${base}/v1/rooms/list?${new URLSearchParams(params)}`, { headers: { 'x-forwarded-for': address } }));
  const v2From = (base: string, address: string, token?: string) => v2(base, 'GET', 'room', { token, headers: { 'x-forwarded-for': address } });
  const limitHeaders = (res: V1Response) => ['limit', 'remaining'].map((h) => res.headers.get(`x-ratelimit-${h}`));

  it('v1: counts unknown tokens of an address across replicas; past the limit, 403 (v1 clients know no 429) before any lookup, a valid token not yet known included', async () => {
    const A = '203.0.113.61';
    for (let i = 0; i < 3; i++) expectError(await v1From(i % 2 ? second : stack.baseUrl, A, { auth_token: `unknown-${i}` }), 401, 'Unauthorized', /^Auth token invalid/);

    const past = await v1From(second, A, { auth_token: 'unknown-3' });
    expectError(past, 403, 'Forbidden', TOO_MANY);
    expect(limitHeaders(past)).toEqual(['3', '0']);
    expect(Number(past.headers.get('x-ratelimit-reset')) % 3600).toBe(0);
    expectRetryAfter(past, 3600);
    expect(past.json.error.message).toBe(`Too many requests with unknown tokens from this address: try again in ${past.headers.get('retry-after')} seconds.`);

    // That replica refuses the tokens from the address that it would have to look up: a valid one it
    // has not seen too, in XML too. One its cache knows valid costs no lookup: it is still served.
    const fresh = await stack.createToken('admin', 'never used before');
    expectError(await v1From(second, A, { auth_token: fresh }), 403, 'Forbidden', TOO_MANY);
    expectXmlError(await v1From(second, A, { auth_token: fresh, format: 'xml' }), 403, 'Forbidden', TOO_MANY);
    expect((await v1From(second, '198.51.100.62', { auth_token: s.v1Admin })).status).toBe(200);
    expect((await v1From(second, A, { auth_token: s.v1Admin })).status).toBe(200);
    // A request presenting no token is not refused by it (nothing is looked up); another address is counted apart.
    expectError(await v1From(second, A, {}), 401, 'Unauthorized');
    expect((await v1From(second, '198.51.100.61', { auth_token: s.v1Admin })).status).toBe(200);

    // The other replica refuses the address's next failure by the shared count, and its tokens from then on.
    // (Whether it served a valid token before that is not asked: replicas in one process share passport's strategies.)
    expectError(await v1From(stack.baseUrl, A, { auth_token: 'unknown-4' }), 403, 'Forbidden', TOO_MANY);
    expectError(await v1From(stack.baseUrl, A, { auth_token: fresh }), 403, 'Forbidden', TOO_MANY);
  });

  it('v2: counts unknown tokens and other APIs\' tokens; past the limit, 429 in the v2 body with that count\'s headers', async () => {
    const C = '203.0.113.62';
    const answers = [
      await v2From(stack.baseUrl, C, 'unknown-token'),
      await v2From(second, C, s.v1Admin),
      await v2From(stack.baseUrl, C, 'revoked-or-malformed!'),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401]);

    const past = await v2From(stack.baseUrl, C, 'unknown-token');
    expect(past.status).toBe(429);
    expect(past.json).toEqual({ error: { code: 429, type: 'Too Many Requests', message: expect.stringMatching(TOO_MANY) } });
    expect(limitHeaders(past)).toEqual(['3', '0']);
    expectRetryAfter(past, 3600);
    const fresh = await v2From(stack.baseUrl, C, await s.personalToken(s.adminId));
    expect([fresh.status, fresh.json.error.message]).toEqual([429, expect.stringMatching(TOO_MANY)]);
    // Once the replica has looked it up (from another address), the token is known: served from C too.
    expect((await v2From(stack.baseUrl, '198.51.100.63', s.token)).status).toBe(200);
    expect((await v2From(stack.baseUrl, C, s.token)).status).toBe(200);
  });

  it('counts failures only: valid tokens from an address leave its budget whole; v1 and v2 failures count together', async () => {
    const E = '203.0.113.63';
    for (let i = 0; i < 6; i++) expect((await v2From(i % 2 ? second : stack.baseUrl, E, s.token)).status).toBe(200);
    expectError(await v1From(stack.baseUrl, E, { auth_token: 'unknown' }), 401, 'Unauthorized');
    expect((await v2From(second, E, 'unknown')).status).toBe(401);
    expectError(await v1From(second, E, { auth_token: 'unknown' }), 401, 'Unauthorized');
    expect((await v2From(stack.baseUrl, E, s.token)).status).toBe(200);
    expect((await v2From(stack.baseUrl, E, 'unknown')).status).toBe(429);
  });
});

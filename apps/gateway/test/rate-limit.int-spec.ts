import { awayFromWindowEnd, Stack, startStack, v1 } from '../../../test/support/harness';
import { expectError, expectJson, expectRateLimitHeaders, expectRetryAfter, expectXmlError } from './gateway-helpers';

// A long window makes crossing a window boundary in mid-test practically impossible.
const LIMITS = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' };

describe('v1 rate limit (real rooms service, Postgres, RabbitMQ, two gateway replicas)', () => {
  // Its scenarios count requests to a limit within one window (an hour's).
  beforeEach(() => awayFromWindowEnd(3600));

  let stack: Stack;
  let second: string;
  let setup: string;
  let roomId: number;

  beforeAll(async () => {
    stack = await startStack({ gateway: LIMITS, rooms: true });
    second = await stack.addGateway(LIMITS);
    setup = await stack.createToken('admin');
    const user = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: setup, email: 'rl@example.com', name: 'Rate Limited' });
    const room = await v1(second, 'POST', 'rooms/create', { auth_token: setup, name: 'Limited Room', owner_user_id: user.json.user.user_id });
    roomId = room.json.room.room_id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const headers = (res: { headers: Headers }) => ({
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: res.headers.get('x-ratelimit-reset'),
  });

  it('counts down on every response and answers the 4th request with 403, across two replicas', async () => {
    expect(second).not.toBe(stack.baseUrl);
    const token = await stack.createToken('admin');
    const r1 = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: token });
    const r2 = await v1(second, 'GET', 'rooms/list', { auth_token: token });
    const r3 = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: token });
    for (const r of [r1, r2, r3]) {
      expectJson(r, 200);
      expectRateLimitHeaders(r, 3);
    }
    expect([r1, r2, r3].map((r) => headers(r).remaining)).toEqual(['2', '1', '0']);
    const reset = headers(r1).reset;
    expect([r2, r3].map((r) => headers(r).reset)).toEqual([reset, reset]);
    expect(Number(reset) % 3600).toBe(0);

    const r4 = await v1(second, 'GET', 'rooms/list', { auth_token: token });
    expectError(r4, 403, 'Forbidden', /^You have exceeded the rate limit\. See http.*\/docs\/api\/rate_limiting$/);
    expect(headers(r4)).toEqual({ limit: '3', remaining: '0', reset });
    // Not in HipChat's answer; ours adds it (adding headers keeps clients working).
    expectRetryAfter(r4, 3600);

    const r5 = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: token, format: 'xml' });
    expectXmlError(r5, 403, 'Forbidden', /rate limit/);
    expect(headers(r5)).toEqual({ limit: '3', remaining: '0', reset });
    expectRetryAfter(r5, 3600);
  });

  it('does not perform a request past the limit', async () => {
    const token = await stack.createToken('notification');
    for (let i = 0; i < 3; i++) {
      expect(expectJson(await v1(i % 2 ? second : stack.baseUrl, 'POST', 'rooms/message', { auth_token: token, room_id: roomId, from: 'Bot', message: `within ${i}` }), 200)).toEqual({ status: 'sent' });
    }
    expectError(await v1(second, 'POST', 'rooms/message', { auth_token: token, room_id: roomId, from: 'Bot', message: 'past the limit' }), 403, 'Forbidden', /rate limit/);
    const history = await v1(stack.baseUrl, 'GET', 'rooms/history', { auth_token: await stack.createToken('admin'), room_id: roomId, date: 'recent' });
    const texts = expectJson(history, 200).messages.map((m: { message: string }) => m.message);
    expect(texts).toEqual(['within 0', 'within 1', 'within 2']);
  });

  it('keeps a separate count per token', async () => {
    const a = await stack.createToken('admin');
    const b = await stack.createToken('admin');
    for (let i = 0; i < 3; i++) expectJson(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: a }), 200);
    expectError(await v1(second, 'GET', 'rooms/list', { auth_token: a }), 403, 'Forbidden');
    const other = await v1(second, 'GET', 'rooms/list', { auth_token: b });
    expectJson(other, 200);
    expect(headers(other).remaining).toBe('2');
  });

  it('counts validation errors, wrong-kind refusals and auth tests', async () => {
    const token = await stack.createToken('notification');
    const bad = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: token, room_id: roomId, from: 'x'.repeat(20), message: 'm' });
    expectError(bad, 400, 'Bad Request', /^from: /);
    expect(headers(bad)).toMatchObject({ limit: '3', remaining: '2' });
    const forbidden = await v1(second, 'GET', 'rooms/list', { auth_token: token });
    expectError(forbidden, 403, 'Forbidden', /does not have access/);
    expect(headers(forbidden).remaining).toBe('1');
    const test = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: token, auth_test: 'true' });
    expect(test.status).toBe(202);
    expect(headers(test).remaining).toBe('0');
    expectError(await v1(second, 'POST', 'rooms/message', { auth_token: token, auth_test: 'true' }), 403, 'Forbidden', /rate limit/);
  });

  it('sends the headers on 401, 404, 405 and 406 answers too', async () => {
    const token = await stack.createToken('admin');
    const answers = [
      await v1(stack.baseUrl, 'GET', 'rooms/list', {}),
      await v1(second, 'GET', 'rooms/list', { auth_token: 'invalid-token' }),
      await v1(stack.baseUrl, 'GET', 'rooms/unknown', { auth_token: token }),
      await v1(second, 'GET', 'rooms/create', { auth_token: token }),
      await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: token, format: 'yaml' }),
      await v1(second, 'GET', 'rooms/show', { auth_token: token, room_id: 'No Such Room' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 404, 405, 406, 404]);
    for (const r of answers) expectRateLimitHeaders(r, 3);
    expect(headers(answers[5]).remaining).toBe('2');
  });

  it('publishes the configured numbers in its documentation', async () => {
    const res = await fetch(`${second}/docs/api/rate_limiting`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('3 requests per 60 minutes');
  });
});

import { createLogger } from '@app/common';
import Redis from 'ioredis';
import type { GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import type { RoomsClient } from '../../shared/rooms-client';
import { SignInThrottle } from './sign-in-throttle';
import { SignInThrottled, SignInThrottledEvent } from './sign-in-throttled';
import { SignIn } from './sign-in.usecase';

const PASSWORD = 'correct horse 1';
const USER = { id: 7, name: 'Ada', mentionName: 'Ada', email: 'ada@example.com', isGroupAdmin: false };

/** Sign-in with the rooms service faked (it counts the passwords it checks) and the throttle's in-memory counts. */
describe('SignIn', () => {
  let redis: Redis;
  let checked: string[];
  let events: SignInThrottledEvent[];
  let signIn: SignIn;
  let roomsFails: boolean;

  beforeEach(() => {
    redis = new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    checked = [];
    events = [];
    roomsFails = false;
    const logger = createLogger('test', 'silent');
    const limiter = (name: string, limit: number) => new RequestRateLimiter(redis, { limit, windowSeconds: 900, keyPrefix: `t:${name}` }, logger);
    const throttle = new SignInThrottle({ accountAddress: limiter('aa', 5), account: limiter('a', 50), address: limiter('ad', 50) });
    const rooms = {
      send: async (_command: unknown, body: { password: string }) => {
        checked.push(body.password);
        await new Promise((r) => setImmediate(r)); // a check takes a while: guesses overlap
        if (roomsFails) throw new ApiError(504, 'The rooms service did not answer in time.');
        return { session: body.password === PASSWORD ? { user: USER, expires: new Date().toISOString() } : null };
      },
    } as unknown as RoomsClient;
    const throttled = new SignInThrottled(logger, rooms);
    jest.spyOn(throttled, 'record').mockImplementation((e) => { events.push(e); });
    signIn = new SignIn(rooms, throttle, throttled, { SESSION_TTL: 3_600_000, PUBLIC_BASE_URL: 'http://chat.test' } as GatewayConfig);
  });
  afterEach(() => redis.disconnect());

  const attempt = (password: string, address = '203.0.113.7') =>
    signIn.execute({ email: USER.email, password }, { address, protocol: 'http' }).then(() => 201, (e: ApiError) => e);

  it('checks at most 5 of 50 concurrent wrong passwords; the others are refused with Retry-After, and so is the right one', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => attempt(`wrong ${i}`)));
    expect(checked).toHaveLength(5);
    expect(answers.filter((a) => a instanceof ApiError && a.status === 401)).toHaveLength(5);
    const refused = answers.filter((a): a is ApiError => a instanceof ApiError && a.status === 429);
    expect(refused).toHaveLength(45);
    for (const r of refused) expect(Number(r.headers['Retry-After'])).toBeGreaterThan(0);
    expect(await attempt(PASSWORD)).toMatchObject({ status: 429, message: expect.stringMatching(/of this account from this address/) });
    expect(checked).toHaveLength(5);
    // The real user from their own address is not locked out.
    expect(await attempt(PASSWORD, '198.51.100.1')).toBe(201);
  });

  it('tells the throttle once, by the failure that spent the budget: the e-mail and the address, no password', async () => {
    for (let i = 0; i < 6; i++) await attempt(`wrong ${i}`);
    expect(events).toEqual([{ email: USER.email, address: '203.0.113.7', by: 'accountAddress', limit: 5, windowSeconds: 900, retryAfterSeconds: expect.any(Number) }]);
  });

  it('gives a guess back when the check did not answer', async () => {
    roomsFails = true;
    for (let i = 0; i < 8; i++) expect(await attempt('wrong')).toMatchObject({ status: 504 });
    roomsFails = false;
    expect(await attempt(PASSWORD)).toBe(201);
  });
});

import { createLogger, hashApiToken } from '@app/common';
import { AcceptInvitationV1 } from '@app/contracts';
import Redis from 'ioredis';
import type { GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import type { RoomsClient } from '../../shared/rooms-client';
import { AcceptInvitation, UNKNOWN_INVITATION } from './accept-invitation.usecase';
import { SignInThrottle } from './sign-in-throttle';
import { SignInThrottled, SignInThrottledEvent } from './sign-in-throttled';

const LINK = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
const USER = { id: 7, name: 'Grace', mentionName: 'grace', email: 'grace@example.com', isGroupAdmin: false };

/** Acceptance with the rooms service faked (it knows one link, once) and the throttle's in-memory counts. */
describe('AcceptInvitation (gateway)', () => {
  let redis: Redis;
  let sent: Array<Record<string, unknown>>;
  let events: SignInThrottledEvent[];
  let accept: AcceptInvitation;
  let used: boolean;
  let roomsFails: boolean;

  beforeEach(() => {
    redis = new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    sent = [];
    events = [];
    used = false;
    roomsFails = false;
    const logger = createLogger('test', 'silent');
    const limiter = (name: string, limit: number) => new RequestRateLimiter(redis, { limit, windowSeconds: 900, keyPrefix: `t:${name}` }, logger);
    const throttle = new SignInThrottle({ accountAddress: limiter('aa', 5), account: limiter('a', 50), address: limiter('ad', 50) });
    const rooms = {
      send: async (command: unknown, body: Record<string, unknown>) => {
        expect(command).toBe(AcceptInvitationV1);
        sent.push(body);
        if (roomsFails) throw new ApiError(504, 'The rooms service did not answer in time.');
        const known = body.tokenHash === hashApiToken(LINK) && !used;
        used ||= known;
        return { session: known ? { id: 40, user: USER, expires: '2026-12-13T00:00:00.000Z' } : null };
      },
    } as unknown as RoomsClient;
    const throttled = new SignInThrottled(logger, rooms);
    jest.spyOn(throttled, 'record').mockImplementation((e) => { events.push(e); });
    accept = new AcceptInvitation(rooms, throttle, throttled, { SESSION_TTL: 3_600_000, PUBLIC_BASE_URL: 'https://chat.example.com' } as GatewayConfig);
  });
  afterEach(() => redis.disconnect());

  const attempt = (link: string, address = '203.0.113.7') =>
    accept.execute(link, { password: 'chosen 12345' }, { address, protocol: 'https' }).catch((e: ApiError) => e);

  it('signs in as POST /v2/session does, sending the link\'s hash only; the same link again is unknown', async () => {
    const answer = await attempt(LINK);
    expect(answer).toEqual({
      body: { user: { id: 7, name: 'Grace', mention_name: 'grace', email: 'grace@example.com', is_group_admin: false }, csrf_token: expect.any(String), expires: '2026-12-13T00:00:00.000Z' },
      setCookie: expect.stringMatching(/^chat_session=[A-Za-z0-9]{40}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=3600; Secure$/),
    });
    expect(sent[0]).toEqual({ tokenHash: hashApiToken(LINK), password: 'chosen 12345', sessionHash: expect.stringMatching(/^[0-9a-f]{64}$/), ttlSeconds: 3600, address: '203.0.113.7' });
    expect(JSON.stringify(sent)).not.toContain(LINK);
    const again = await attempt(LINK);
    expect(again).toBeInstanceOf(ApiError);
    expect(again).toMatchObject({ status: 404, message: UNKNOWN_INVITATION });
    expect(await attempt('x'.repeat(40))).toMatchObject({ status: 404, message: UNKNOWN_INVITATION });
  });

  it('counts tries per link and address as sign-in guesses: the sixth is refused with Retry-After, told without the link', async () => {
    const other = 'Z'.repeat(40);
    for (let i = 0; i < 5; i++) expect(await attempt(other)).toMatchObject({ status: 404 });
    const refused = await attempt(other);
    expect(refused).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many tries with this link from this address: try again in \d+ seconds\.$/) });
    expect(Number((refused as ApiError).headers['Retry-After'])).toBeGreaterThan(0);
    expect(sent).toHaveLength(5);
    expect(events).toEqual([{ email: 'an invitation link', address: '203.0.113.7', by: 'accountAddress', limit: 5, windowSeconds: 900, retryAfterSeconds: expect.any(Number) }]);
    // Another link from the same address is still tried.
    expect(await attempt(LINK)).toMatchObject({ body: { user: { id: 7 } } });
  });

  it('gives a try back when the rooms service did not answer', async () => {
    roomsFails = true;
    for (let i = 0; i < 8; i++) expect(await attempt(LINK)).toMatchObject({ status: 504 });
    roomsFails = false;
    expect(await attempt(LINK)).toMatchObject({ body: { user: { id: 7 } } });
  });
});

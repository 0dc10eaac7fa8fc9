import { createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { awayFromWindowEnd, eventually, Stack, startStack, v1 } from '../../../test/support/harness';
import { expectError, expectJson, expectRateLimitHeaders } from './gateway-helpers';

const LIMITS = { RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_SECONDS: '3600' };

/** A TCP proxy in front of Redis that the test can cut and restore: a Redis outage on demand. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async open(port = 0): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

describe('rate limit in Redis (real rooms service, Postgres, RabbitMQ, Redis)', () => {
  // Its scenarios count requests to a limit within one window (an hour's).
  beforeEach(() => awayFromWindowEnd(3600));

  let stack: Stack;
  let second: string;
  let redis: Redis;

  beforeAll(async () => {
    stack = await startStack({ gateway: LIMITS, rooms: true });
    second = await stack.addGateway(LIMITS);
    redis = new Redis(stack.redisUrl);
  });
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  const keysOfStack = () => redis.keys(`${stack.namespace}:rl:v1:*`);

  it('shares one count per token between two replicas, in Redis under the stack\'s namespace', async () => {
    const token = await stack.createToken('admin');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await v1(i % 2 ? second : stack.baseUrl, 'GET', 'rooms/list', { auth_token: token }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    for (const r of answers) expectRateLimitHeaders(r, 4);
    expectError(await v1(second, 'GET', 'rooms/list', { auth_token: token }), 403, 'Forbidden', /rate limit/);
    expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: token }), 403, 'Forbidden', /rate limit/);

    const keys = await keysOfStack();
    expect(keys).toHaveLength(1);
    const reset = answers[0].headers.get('x-ratelimit-reset');
    expect(keys[0]).toMatch(new RegExp(`^${stack.namespace}:rl:v1:\\d+:\\d+s:${reset}$`));
    // Requests past the limit keep counting; the key goes when its window ends.
    expect(await redis.get(keys[0])).toBe('6');
    const ttl = await redis.ttl(keys[0]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(Number(reset) - Math.floor(Date.now() / 1000) + 1);
  });

  it('keeps answering while Redis is unreachable, counting per replica, and shares counts again once it is back', async () => {
    const proxy = new CuttableProxy(new URL(stack.redisUrl));
    await proxy.open();
    const replica = await stack.addGateway({ ...LIMITS, REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    const token = await stack.createToken('admin');
    const remaining = async () => {
      const res = await v1(replica, 'GET', 'rooms/list', { auth_token: token });
      expectJson(res, 200);
      expectRateLimitHeaders(res, 4);
      return res.headers.get('x-ratelimit-remaining');
    };
    const before = new Set(await keysOfStack());
    expect(await remaining()).toBe('3');
    const [key] = (await keysOfStack()).filter((k) => !before.has(k));
    expect(await redis.get(key)).toBe('1');

    await proxy.cut();
    // In memory from now on: this replica's own count, from zero.
    expect(await remaining()).toBe('3');
    expect(await remaining()).toBe('2');
    expect(await redis.get(key)).toBe('1');

    await proxy.open(proxy.port);
    // Counted in Redis again once the connection is back.
    await eventually(async () => {
      await remaining();
      expect(Number(await redis.get(key))).toBeGreaterThanOrEqual(2);
    }, 5_000);
    await proxy.cut();
  });
});

import { hashApiToken } from '@app/common';
import { AuthenticateReplyV1, TokensCommandV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { Stack, startStack } from '../../../test/support/harness';
import { TokensService } from '../src/tokens/tokens.service';
import { RoomsRpc, sql } from './support';


describe('tokens.authenticate.v1 (real Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let rpc: RoomsRpc;
  let tokens: TokensService;

  beforeAll(async () => {
    stack = await startStack({ rooms: true });
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    tokens = new TokensService(stack.rooms!.get(DataSource));
  });
  afterAll(async () => {
    await rpc?.close();
    await stack?.stop();
  });

  const authenticate = (token: string, windowSeconds: number) =>
    rpc.send<AuthenticateReplyV1>(TokensCommandV1.authenticate, { tokenHash: hashApiToken(token), windowSeconds });

  it('answers the token and counts each request in a fixed window aligned on the window length', async () => {
    const created = await tokens.create('notification', 'ci bot');
    const before = Math.floor(Date.now() / 1000);
    const first = await authenticate(created.token, 3600);
    expect(first).toEqual({
      token: { id: created.id, kind: 'notification', label: 'ci bot' },
      count: 1,
      windowResetsAt: expect.any(Number),
    });
    expect(first.windowResetsAt % 3600).toBe(0);
    expect(first.windowResetsAt).toBeGreaterThan(before);
    expect(first.windowResetsAt).toBeLessThanOrEqual(before + 3600 + 5);
    expect((await authenticate(created.token, 3600)).count).toBe(2);
    const third = await authenticate(created.token, 3600);
    expect(third).toEqual({ ...first, count: 3 });
  });

  it('counts concurrent requests exactly once each', async () => {
    const created = await tokens.create('admin');
    const replies = await Promise.all(Array.from({ length: 25 }, () => authenticate(created.token, 3600)));
    expect(replies.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(new Set(replies.map((r) => r.windowResetsAt)).size).toBe(1);
    const [row] = await sql(stack.databaseUrl, 'SELECT request_count FROM api_token_rate_windows WHERE token_id = $1', [created.id]);
    expect(row.request_count).toBe(25);
  });

  it('starts counting again at 1 in the next window', async () => {
    const created = await tokens.create('admin');
    // Start right after a 2-second boundary so that both requests fall in the same window.
    const ms = Date.now() % 2000;
    if (ms > 500) await new Promise((r) => setTimeout(r, 2000 - ms + 50));
    const a = await authenticate(created.token, 2);
    const b = await authenticate(created.token, 2);
    expect([a.count, b.count]).toEqual([1, 2]);
    expect(b.windowResetsAt).toBe(a.windowResetsAt);
    expect(a.windowResetsAt % 2).toBe(0);
    await new Promise((r) => setTimeout(r, Math.max(0, a.windowResetsAt * 1000 - Date.now()) + 100));
    const c = await authenticate(created.token, 2);
    expect(c.count).toBe(1);
    expect(c.windowResetsAt).toBeGreaterThanOrEqual(a.windowResetsAt + 2);
  });

  it('keeps separate counters per token', async () => {
    const one = await tokens.create('admin');
    const two = await tokens.create('admin');
    await authenticate(one.token, 3600);
    await authenticate(one.token, 3600);
    expect((await authenticate(two.token, 3600)).count).toBe(1);
    expect((await authenticate(one.token, 3600)).count).toBe(3);
  });

  it('answers a null token (count 0) for an unknown token, and counts nothing', async () => {
    const reply = await authenticate('no-such-token-at-all', 3600);
    expect(reply).toEqual({ token: null, count: 0, windowResetsAt: expect.any(Number) });
    expect(reply.windowResetsAt % 3600).toBe(0);
    expect(reply.windowResetsAt).toBeGreaterThan(Date.now() / 1000 - 1);
  });

  it('answers a null token for a revoked token', async () => {
    const created = await tokens.create('admin', 'to revoke');
    expect((await authenticate(created.token, 60)).token).toMatchObject({ id: created.id, kind: 'admin' });
    expect(await tokens.revoke(created.id)).toBe(true);
    expect(await tokens.revoke(created.id)).toBe(false);
    expect(await authenticate(created.token, 60)).toEqual({ token: null, count: 0, windowResetsAt: expect.any(Number) });
    expect((await tokens.list(false)).map((t) => t.id)).not.toContain(created.id);
    expect((await tokens.list(true)).find((t) => t.id === created.id)?.revokedAt).toBeInstanceOf(Date);
  });

  it('refuses to create a token of an unknown kind or with an over-long label', async () => {
    await expect(tokens.create('superuser')).rejects.toThrow('--type must be one of admin, notification');
    await expect(tokens.create('admin', 'x'.repeat(101))).rejects.toThrow('at most 100');
  });
});

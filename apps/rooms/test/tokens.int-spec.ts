import { createLogger, hashApiToken } from '@app/common';
import { ResolveTokenV1, TokenRevokedV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { ROOMS_CONFIG, RoomsConfig } from '../src/config';
import { createUnitOfWork } from '../src/rooms-app.module';
import { TokensService } from '../src/tokens/tokens.service';
import { eventually, EventCapture, RoomsRpc, RoomsStack, sleep, sql, startStack, tokensOf } from './support';


describe('tokens (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let tokens: TokensService;
  let capture: EventCapture;

  beforeAll(async () => {
    // A short sweep age: events the CLI leaves in the outbox go out quickly.
    stack = await startStack({ OUTBOX_SWEEP_AGE_MS: '200', OUTBOX_POLL_MS: '200' });
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    tokens = tokensOf(stack.rooms);
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace, 'token.#');
  });
  afterAll(async () => {
    await capture?.stop();
    await rpc?.close();
    await stack?.stop();
  });

  const resolve = (token: string) => rpc.send(ResolveTokenV1, { tokenHash: hashApiToken(token) });
  const outboxCount = async () => (await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM outbox'))[0].n as number;
  const revokedEvents = (tokenId: number) => capture.of(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === tokenId);

  describe('tokens.resolve-token.v1', () => {
    it('answers the token (id, kind, label) for the hash of a live token', async () => {
      const created = await tokens.create('notification', 'ci bot');
      expect(created).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^[A-Za-z0-9]{40}$/), kind: 'notification', label: 'ci bot' });
      expect(await resolve(created.token)).toEqual({ token: { id: created.id, kind: 'notification', label: 'ci bot' } });
      const unlabelled = await tokens.create('admin');
      expect(await resolve(unlabelled.token)).toEqual({ token: { id: unlabelled.id, kind: 'admin', label: '' } });
      // Only the hash is stored.
      const [row] = await sql(stack.databaseUrl, 'SELECT token_hash FROM api_tokens WHERE id = $1', [created.id]);
      expect(row.token_hash).toBe(hashApiToken(created.token));
    });

    it('answers each token on its own, also under concurrent lookups', async () => {
      const one = await tokens.create('admin', 'one');
      const two = await tokens.create('notification', 'two');
      const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => resolve(i % 2 ? two.token : one.token)));
      replies.forEach((r, i) => expect(r.token?.id).toBe(i % 2 ? two.id : one.id));
    });

    it('answers a null token for an unknown token', async () => {
      expect(await resolve('no-such-token-at-all')).toEqual({ token: null });
    });

    it('refuses a tokenHash that is not a SHA-256 hash in hex (the clear token never crosses the broker)', async () => {
      const created = await tokens.create('admin');
      expect(await rpc.refused(ResolveTokenV1, { tokenHash: created.token }))
        .toEqual({ code: 'invalid', reason: 'rule', field: 'tokenHash', detail: { problem: 'must be a SHA-256 hash in hex' } });
      expect(await rpc.refused(ResolveTokenV1, {})).toMatchObject({ code: 'invalid', reason: 'rule', field: 'tokenHash' });
    });
  });

  describe('revoking', () => {
    it('publishes token.revoked.v1 {tokenId} once, and the token resolves to null from then on', async () => {
      const created = await tokens.create('admin', 'to revoke');
      const other = await tokens.create('admin', 'stays');
      expect((await resolve(created.token)).token).toEqual({ id: created.id, kind: 'admin', label: 'to revoke' });
      expect(await tokens.revoke(created.id)).toBe(true);
      const event = await capture.waitFor(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === created.id);
      expect(event).toEqual({
        id: expect.any(String), type: 'token.revoked', version: 1, occurredAt: expect.any(String), payload: { tokenId: created.id },
      });
      expect(await resolve(created.token)).toEqual({ token: null });
      expect((await resolve(other.token)).token?.id).toBe(other.id);

      // A second revoke finds no live token and tells nobody.
      expect(await tokens.revoke(created.id)).toBe(false);
      expect(await tokens.revoke(987654)).toBe(false);
      await sleep(300);
      expect(revokedEvents(created.id)).toHaveLength(1);
      expect(revokedEvents(987654)).toEqual([]);
      expect((await tokens.list(false)).map((t) => t.id)).not.toContain(created.id);
      expect((await tokens.list(true)).find((t) => t.id === created.id)?.revokedAt).toBeInstanceOf(Date);
      await eventually(async () => expect(await outboxCount()).toBe(0));
    });

    it('a revoke made without a broker (the CLI when RabbitMQ is down) is published by the rooms service', async () => {
      const created = await tokens.create('notification', 'offline revoke');
      // What the CLI builds when it cannot reach RabbitMQ: a unit of work whose relay has no publisher.
      const config = stack.rooms.get<typeof ROOMS_CONFIG, RoomsConfig>(ROOMS_CONFIG);
      const work = createUnitOfWork(stack.rooms.get(DataSource), undefined, createLogger('cli', 'silent'), config);
      try {
        expect(await new TokensService(stack.rooms.get(DataSource), work.uow).revoke(created.id)).toBe(true);
      } finally {
        await work.relay.stop();
      }
      expect(await resolve(created.token)).toEqual({ token: null });
      const event = await capture.waitFor(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === created.id, 10_000);
      expect(event.payload).toEqual({ tokenId: created.id });
      await eventually(async () => expect(await outboxCount()).toBe(0));
    });
  });

  it('refuses to create a token of an unknown kind or with an over-long label', async () => {
    await expect(tokens.create('superuser')).rejects.toThrow('--type must be one of admin, notification');
    await expect(tokens.create('admin', 'x'.repeat(101))).rejects.toThrow('at most 100');
    expect(await sql(stack.databaseUrl, "SELECT count(*)::int AS n FROM api_tokens WHERE kind NOT IN ('admin', 'notification') OR length(label) > 100"))
      .toEqual([{ n: 0 }]);
  });
});

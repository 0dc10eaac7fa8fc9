import { createLogger, hashApiToken } from '@app/common';
import { ResolveTokenV1, TokenRevokedV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomsConfig } from '../src/config';
import { createUnitOfWork, ROOMS_CONFIG } from '../src/shared/infrastructure.module';
import { TokenCommands } from '../src/cli/token-commands';
import { cliOf, eventually, EventCapture, RoomsRpc, RoomsStack, sleep, sql, startStack, tokensOf } from './support';


describe('tokens (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let tokens: TokenCommands;
  let capture: EventCapture;

  beforeAll(async () => {
    // A short sweep age: events the CLI leaves in the outbox go out quickly.
    stack = await startStack({ OUTBOX_POLL_MS: '200' });
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
      expect(await resolve(created.token)).toEqual({ token: { id: created.id, kind: 'notification', label: 'ci bot', userId: null, roomId: null, scopes: [] } });
      const unlabelled = await tokens.create('admin');
      expect(await resolve(unlabelled.token)).toEqual({ token: { id: unlabelled.id, kind: 'admin', label: '', userId: null, roomId: null, scopes: [] } });
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

  describe('v2 tokens', () => {
    const newUser = async (email: string) => (await sql(stack.databaseUrl,
      `INSERT INTO users (name, mention_name, email, password_hash, version) VALUES ('V2 User', $1, $2, 'x', 'AAAA') RETURNING id`,
      [email.split('@')[0], email]))[0].id as number;

    it('makes a personal token for a user (by id or e-mail) with the scopes asked for, every scope by default', async () => {
      const userId = await newUser('v2owner@example.com');
      const some = await tokens.create('personal', 'bot', { user: 'V2Owner@example.com', scopes: ['view_group', 'send_message'] });
      expect((await resolve(some.token)).token).toEqual({ id: some.id, kind: 'personal', label: 'bot', userId, roomId: null, scopes: ['view_group', 'send_message'] });
      const all = await tokens.create('personal', '', { user: String(userId) });
      // Made with all eight; it acts with admin_group only while its user is a group admin.
      expect((await resolve(all.token)).token?.scopes).toEqual(['admin_room', 'manage_rooms', 'send_message', 'send_notification', 'view_group', 'view_messages', 'view_room']);
      await sql(stack.databaseUrl, 'UPDATE users SET is_group_admin = true WHERE id = $1', [userId]);
      expect((await resolve(all.token)).token?.scopes).toHaveLength(8);
      expect((await resolve(all.token)).token?.scopes).toContain('admin_group');
      await sql(stack.databaseUrl, 'UPDATE users SET is_group_admin = false WHERE id = $1', [userId]);
      expect((await resolve(all.token)).token?.scopes).not.toContain('admin_group');
    });

    it('makes a room token that may only send notifications', async () => {
      const userId = await newUser('roomowner@example.com');
      const [room] = await sql(stack.databaseUrl, `INSERT INTO rooms (name, privacy, owner_user_id, version) VALUES ('Token Room', 'public', $1, 'BBBB') RETURNING id`, [userId]);
      const created = await tokens.create('room', 'deploys', { room: 'token room' });
      expect((await resolve(created.token)).token).toEqual({ id: created.id, kind: 'room', label: 'deploys', userId: null, roomId: room.id, scopes: ['send_notification'] });
    });

    it('refuses what a v2 token cannot be, naming the option', async () => {
      await expect(tokens.create('personal', '')).rejects.toThrow('a personal token needs --user');
      await expect(tokens.create('personal', '', { user: 'nobody@example.com' })).rejects.toThrow('--user: no user nobody@example.com');
      await newUser('scoped@example.com');
      await expect(tokens.create('personal', '', { user: 'scoped@example.com', scopes: ['fly'] })).rejects.toThrow('--scopes: unknown scope "fly"');
      await expect(tokens.create('room', '', { room: '999999' })).rejects.toThrow('--room: no room 999999');
      await expect(tokens.create('admin', '', { user: '1' })).rejects.toThrow('--user, --room and --scopes are for v2 tokens');
      await expect(tokens.create('addon', '')).rejects.toThrow('add-on tokens come from the OAuth token URL');
    });

    it("stops resolving a personal token once its user is deleted", async () => {
      const userId = await newUser('leaver@example.com');
      const created = await tokens.create('personal', '', { user: String(userId) });
      await sql(stack.databaseUrl, 'UPDATE users SET is_deleted = true WHERE id = $1', [userId]);
      expect(await resolve(created.token)).toEqual({ token: null });
    });
  });

  describe('revoking', () => {
    it('publishes token.revoked.v1 {tokenId} once, and the token resolves to null from then on', async () => {
      const created = await tokens.create('admin', 'to revoke');
      const other = await tokens.create('admin', 'stays');
      expect((await resolve(created.token)).token).toEqual({ id: created.id, kind: 'admin', label: 'to revoke', userId: null, roomId: null, scopes: [] });
      expect(await tokens.revoke(created.id)).toBe(true);
      const event = await capture.waitFor(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === created.id);
      expect(event).toEqual({
        id: expect.any(String), type: 'token.revoked', version: 1, occurredAt: expect.any(String), payload: { tokenId: created.id },
        registrationsVersion: expect.any(Number),
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

    it('lists only live tokens: an expired one (an add-on\'s, after its hour) only with --all, with when it expired', async () => {
      const created = await tokens.create('admin', 'add-on hour');
      const db = stack.rooms!.get(DataSource);
      await db.query(`UPDATE api_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1`, [created.id]);
      expect((await tokens.list(false)).map((t) => t.id)).not.toContain(created.id);
      const listed = (await tokens.list(true)).find((t) => t.id === created.id);
      expect(listed).toMatchObject({ revokedAt: null, expiresAt: expect.any(Date) });
      expect(listed!.expiresAt!.getTime()).toBeLessThan(Date.now());
    });

    it('a revoke made without a broker (the CLI when RabbitMQ is down) is published by the rooms service', async () => {
      const created = await tokens.create('notification', 'offline revoke');
      // What the CLI builds when it cannot reach RabbitMQ: a unit of work whose relay has no publisher.
      const config = stack.rooms.get<typeof ROOMS_CONFIG, RoomsConfig>(ROOMS_CONFIG);
      const work = createUnitOfWork(stack.rooms.get(DataSource), undefined, createLogger('cli', 'silent'), config);
      try {
        expect(await new TokenCommands(stack.rooms.get(DataSource), work.uow).revoke(created.id)).toBe(true);
      } finally {
        await work.relay.stop();
      }
      expect(await resolve(created.token)).toEqual({ token: null });
      const event = await capture.waitFor(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === created.id, 10_000);
      expect(event.payload).toEqual({ tokenId: created.id });
      await eventually(async () => expect(await outboxCount()).toBe(0));
    });
  });

  describe('the CLI as a process', () => {
    const cli = (...args: string[]) => cliOf(stack)(...args);
    const tokenCount = async () => (await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM api_tokens'))[0].n as number;

    it('refuses an option the command would ignore, naming it and why, with exit status 2, and makes nothing', async () => {
      const before = await tokenCount();
      // A room token's scope is fixed (send_notification): --scopes was dropped without a word.
      const made = await cli('token', 'create', '--type', 'room', '--room', 'Token Room', '--scopes', 'admin_group');
      expect(made).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: --scopes does not apply to --type room: a room token only sends notifications to its --room\nUsage:/),
      });
      expect(await cli('token', 'list', '--room', 'Token Room')).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: --room does not apply to token list \(it is for token create, addon install, webhook list(, bridge [a-z]+|, audit)*\)\n/),
      });
      expect(await cli('token', 'create', '--type', 'admin', '--foo')).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: unknown option --foo for token create\n/),
      });
      // An unknown kind is what was typed, as an unknown option is: exit 2 (it was 1).
      expect(await cli('token', 'create', '--type', 'superuser')).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: --type must be one of admin, notification, personal, room \(got "superuser"\)\nUsage:/),
      });
      expect(await cli('token', 'create', 'admin', '--type', 'admin')).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: token create takes no argument \(got "admin"\)\n/),
      });
      // What a type needs and was not given: exit 2 too, before the database is opened (it was 1).
      expect(await cli('token', 'create', '--type', 'personal')).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: a personal token needs --user <id or e-mail address>\nUsage:/),
      });
      expect(await tokenCount()).toBe(before);
    });

    it('refuses an argument the command would ignore: `token list 5` listed every token', async () => {
      expect(await cli('token', 'list', '5')).toEqual({
        status: 2, stdout: '', stderr: expect.stringMatching(/^cli: token list takes no argument \(got "5"\)\nUsage:/),
      });
    });

    it('says only its own line for an id with no live token: nothing of the broker', async () => {
      expect(await cli('token', 'revoke', '99999')).toEqual({ status: 1, stdout: '', stderr: 'no live token with id 99999\n' });
    });

    it('revokes a live token once the rooms service has published it, saying only that', async () => {
      const created = await tokens.create('admin', 'revoked by the CLI process');
      expect(await cli('token', 'revoke', String(created.id))).toEqual({ status: 0, stdout: '', stderr: `revoked token id ${created.id}\n` });
      // The CLI waited for the publication: its row is gone when it answers.
      expect(await sql(stack.databaseUrl, "SELECT count(*)::int AS n FROM outbox WHERE envelope->'payload'->>'tokenId' = $1", [String(created.id)])).toEqual([{ n: 0 }]);
      await capture.waitFor(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === created.id);
      expect(await resolve(created.token)).toEqual({ token: null });
    });
  });

  it('refuses to create a token of an unknown kind or with an over-long label', async () => {
    await expect(tokens.create('superuser')).rejects.toThrow('--type must be one of admin, notification, personal, room');
    await expect(tokens.create('admin', 'x'.repeat(101))).rejects.toThrow('at most 100');
    expect(await sql(stack.databaseUrl, "SELECT count(*)::int AS n FROM api_tokens WHERE kind NOT IN ('admin', 'notification', 'personal', 'room') OR length(label) > 100"))
      .toEqual([{ n: 0 }]);
  });
});

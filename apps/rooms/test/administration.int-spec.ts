import { hashApiToken } from '@app/common';
import {
  AcceptInvitationV1, Actor, AddMemberV1, CreateInvitationV1, CreateRoomV1, CreateWebhookV1, DeleteUserV1, GetUserHoldingsV1, ListAuditV1,
  SignInV1, TokenRevokedV1,
} from '@app/contracts';
import { auditPageSql } from '../src/audit/audit.repository';
import { cliOf, EventCapture, RoomsRpc, RoomsStack, sql, startStack, tokensOf } from './support';

const hex = (n: number) => hashApiToken(`secret ${n} ${Math.random()}`);

describe('administration: invitations, the audit log\'s filters, a user\'s holdings (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let capture: EventCapture;
  let admin: Actor;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack();
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace, 'token.#');
    const made = await rpc.createUser('Admin Ada', { isGroupAdmin: true });
    admin = { label: 'admin-test', userId: made.id, address: '198.51.100.4' };
  });
  afterAll(async () => {
    await capture?.stop();
    await rpc?.close();
    await stack?.stop();
  });

  const person = async (label: string, isGroupAdmin = false) => rpc.createUser(`${label} ${n++}`, { isGroupAdmin, actor: admin });
  const invite = (userId: number, tokenHash: string) => rpc.send(CreateInvitationV1, { actor: admin, user: { id: userId }, tokenHash });
  const accept = (tokenHash: string, password = 'chosen by me 1') =>
    rpc.send(AcceptInvitationV1, { tokenHash, password, sessionHash: hex(n++), ttlSeconds: 3600, address: '203.0.113.9' });
  const signIn = async (email: string, password: string) =>
    (await rpc.send(SignInV1, { email, password, sessionHash: hex(n++), ttlSeconds: 60 })).session;

  describe('invitations', () => {
    it('keeps only the hash, for 7 days; accepting sets the password, ends other sessions and signs in; the link works once', async () => {
      const grace = await person('Grace');
      const old = await signIn(grace.email, 'wrong');
      expect(old).toBeNull();
      const tokenHash = hex(n++);
      const made = await invite(grace.id, tokenHash);
      const [row] = await sql(stack.databaseUrl, 'SELECT token_hash, expires_at FROM user_invitations WHERE user_id = $1', [grace.id]);
      expect(row.token_hash).toBe(tokenHash);
      expect(new Date(made.expires).getTime()).toBe(new Date(row.expires_at).getTime());
      expect(new Date(made.expires).getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);

      // A session made before (the generated password, set here by hand) ends with the acceptance.
      const before = (await sql(stack.databaseUrl,
        `INSERT INTO api_tokens (token_hash, kind, label, user_id, scopes, expires_at) VALUES ($1, 'session', 'console session', $2, '{}', now() + interval '1 hour') RETURNING id`,
        [hex(n++), grace.id]))[0].id as number;
      const { session } = await accept(tokenHash);
      expect(session).toMatchObject({ id: expect.any(Number), user: { id: grace.id, email: grace.email } });
      await capture.waitFor(TokenRevokedV1.routingKey, (e) => e.payload.tokenId === before);
      expect(await signIn(grace.email, 'chosen by me 1')).toMatchObject({ user: { id: grace.id } });

      // Used: the same link answers as one that never was.
      expect(await accept(tokenHash)).toEqual({ session: null });
      expect(await accept(hex(n++))).toEqual({ session: null });
      expect(await sql(stack.databaseUrl, 'SELECT 1 FROM user_invitations WHERE user_id = $1', [grace.id])).toEqual([]);
    });

    it('a new invitation replaces the last; an expired one and one of a deleted user are no use', async () => {
      const alan = await person('Alan');
      const first = hex(n++);
      const second = hex(n++);
      await invite(alan.id, first);
      await invite(alan.id, second);
      expect(await accept(first)).toEqual({ session: null });
      await sql(stack.databaseUrl, "UPDATE user_invitations SET expires_at = now() - interval '1 second' WHERE user_id = $1", [alan.id]);
      expect(await accept(second)).toEqual({ session: null });

      const third = hex(n++);
      await invite(alan.id, third);
      await rpc.send(DeleteUserV1, { actor: admin, user: { id: alan.id } });
      expect(await accept(third)).toEqual({ session: null });
      expect(await rpc.refused(CreateInvitationV1, { actor: admin, user: { id: alan.id }, tokenHash: hex(n++) })).toMatchObject({ code: 'not_found', field: 'user' });
    });

    it('lets one of two acceptances of the same link at once through', async () => {
      const edsger = await person('Edsger');
      const tokenHash = hex(n++);
      await invite(edsger.id, tokenHash);
      const replies = await Promise.all([accept(tokenHash, 'first choice 1'), accept(tokenHash, 'second choice 2')]);
      expect(replies.filter((r) => r.session !== null)).toHaveLength(1);
      const sessions = await sql(stack.databaseUrl, "SELECT id FROM api_tokens WHERE user_id = $1 AND kind = 'session' AND revoked_at IS NULL", [edsger.id]);
      expect(sessions).toHaveLength(1);
    });

    it('is made by the CLI too (cli user invite), the link printed alone on stdout, the CLI named in the audit log', async () => {
      const ken = await person('Ken');
      const cli = cliOf(stack, { PUBLIC_BASE_URL: 'https://chat.example.com' });
      const run = await cli('user', 'invite', `@${ken.mentionName}`);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^https:\/\/chat\.example\.com\/#\/invitation\/[A-Za-z0-9]{40}\n$/);
      expect(run.stderr).toContain(`invited user ${ken.id} (${ken.name}, ${ken.email})`);
      const secret = run.stdout.trim().split('/').pop()!;
      expect((await accept(hashApiToken(secret))).session?.user.id).toBe(ken.id);
      const [line] = (await rpc.send(ListAuditV1, { actor: admin, startIndex: 0, limit: 1, filter: { action: 'user.invited' } })).items;
      expect(line).toMatchObject({ actor: { type: 'cli' }, target: { id: ken.id } });
      // Read back by the CLI too, filtered as GET /v2/audit filters.
      const read = await cli('audit', '--action', 'user.invited', '--since', new Date(Date.now() - 60_000).toISOString(), '--limit', '1', '--json');
      expect(read.status).toBe(0);
      expect(JSON.parse(read.stdout)).toEqual([expect.objectContaining({ action: 'user.invited', actor: { type: 'cli', id: null, name: 'cli' }, target: expect.objectContaining({ id: ken.id }) })]);
      expect(await cli('audit', '--action', 'user.teleported')).toMatchObject({ status: 2, stderr: expect.stringContaining('--action: must be one of') });
      const missing = await cli('user', 'invite', 'nobody@example.com');
      expect(missing).toMatchObject({ status: 1, stdout: '' });
      expect(missing.stderr).toContain('no live user nobody@example.com');
    });

    it('refuses a password that breaks the rule of a new user\'s, and a hash that is not one', async () => {
      expect(await rpc.refused(AcceptInvitationV1, { tokenHash: hex(n++), password: 'short', sessionHash: hex(n++), ttlSeconds: 60 }))
        .toMatchObject({ code: 'invalid', field: 'password', detail: { problem: expect.stringMatching(/^must be at least \d+ characters/) } });
      expect(await rpc.refused(CreateInvitationV1, { actor: admin, user: { id: admin.userId! }, tokenHash: 'the clear secret' }))
        .toMatchObject({ code: 'invalid', field: 'tokenHash' });
    });
  });

  describe('the audit log', () => {
    it('records a user added, invited and accepting, never a secret; filters by actor, action, room and period, together', async () => {
      // The database's clock, which dates the lines.
      const since = (await sql(stack.databaseUrl, 'SELECT now() AS t'))[0].t.toISOString() as string;
      const linus = await person('Linus');
      const tokenHash = hex(n++);
      await invite(linus.id, tokenHash);
      await accept(tokenHash, 'linus chose 12');
      const room = (await rpc.send(CreateRoomV1, { actor: admin, name: `Audit ${n++}`, owner: { id: admin.userId! }, privacy: 'private', topic: '', guestAccess: false })).room;
      await rpc.send(AddMemberV1, { actor: admin, room: { id: room.id }, user: { id: linus.id } });
      await rpc.send(CreateWebhookV1, { actor: admin, room: { id: room.id }, url: 'https://receiver.example.com/hooks/audit?secret=s', event: 'room_message', name: 'audit hook' });

      const list = async (filter: Record<string, unknown>) =>
        (await rpc.send(ListAuditV1, { actor: admin, startIndex: 0, limit: 100, filter })).items;
      const mine = await list({ since });
      expect(mine.map((l) => l.action)).toEqual(['webhook.created', 'room.member_added', 'user.invitation_accepted', 'user.invited', 'user.created']);
      expect(mine[4]).toMatchObject({ actor: { type: 'user', id: admin.userId }, target: { type: 'user', id: linus.id }, address: '198.51.100.4' });
      expect(mine[2]).toMatchObject({ actor: { type: 'user', id: linus.id }, target: { type: 'user', id: linus.id }, address: '203.0.113.9' });
      expect(JSON.stringify(mine)).not.toContain(tokenHash);
      expect(JSON.stringify(mine)).not.toContain('linus chose');

      // By the person who did it: an id, an e-mail address, a mention name.
      expect((await list({ since, by: { id: linus.id } })).map((l) => l.action)).toEqual(['user.invitation_accepted']);
      expect((await list({ since, by: { email: linus.email.toUpperCase() } })).map((l) => l.action)).toEqual(['user.invitation_accepted']);
      expect((await list({ since, by: { mention: linus.mentionName } }))).toHaveLength(1);
      expect((await list({ since, action: 'user.invited' })).map((l) => l.target.id)).toEqual([linus.id]);
      // A room's lines: about the room, and about its webhook (the details name the room).
      expect((await list({ roomId: room.id })).map((l) => l.action)).toEqual(['webhook.created', 'room.member_added']);
      expect((await list({ roomId: room.id, action: 'room.member_added', by: { id: admin.userId! }, since }))).toHaveLength(1);
      expect(await list({ since, until: since })).toEqual([]);
      expect(await list({ until: '2000-01-01T00:00:00Z' })).toEqual([]);
      expect(await rpc.refused(ListAuditV1, { actor: admin, startIndex: 0, limit: 10, filter: { action: 'user.teleported' } }))
        .toMatchObject({ code: 'invalid', field: 'filter' });
      expect(await rpc.refused(ListAuditV1, { actor: admin, startIndex: 0, limit: 10, filter: { by: { email: 'nobody@example.com' } } }))
        .toMatchObject({ code: 'not_found', field: 'actor' });
    });

    it('reads each filter through its index (EXPLAIN)', async () => {
      // Enough lines, of many actors, actions and rooms, for the planner to prefer the indexes to a scan.
      await sql(stack.databaseUrl, `
        INSERT INTO audit_log (created_at, actor_type, actor_id, actor_name, action, target_type, target_id, target_name, details)
        SELECT now() - make_interval(secs => i), 'user', i % 500, 'someone', (ARRAY['room.member_added', 'token.created', 'webhook.created', 'user.promoted'])[i % 4 + 1],
               CASE WHEN i % 3 = 0 THEN 'room' ELSE 'webhook' END, i % 700, 'something',
               CASE WHEN i % 3 = 0 THEN '{}'::jsonb ELSE jsonb_build_object('roomId', i % 700) END
          FROM generate_series(1, 30000) i`);
      await sql(stack.databaseUrl, 'ANALYZE audit_log');
      const plan = async (filter: Parameters<typeof auditPageSql>[0]) => {
        const { sql: text, params } = auditPageSql(filter);
        const rows = await sql(stack.databaseUrl, `EXPLAIN ${text}`, [...params, 0, 50]);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      };
      expect(await plan({ actorUserId: 42 })).toContain('audit_log_actor_idx');
      expect(await plan({ action: 'user.promoted', actorUserId: 42 })).toMatch(/audit_log_(actor|action)_idx/);
      expect(await plan({ action: 'user.invited' })).toContain('audit_log_action_idx');
      const byRoom = await plan({ roomId: 42 });
      expect(byRoom).toContain('audit_log_target_idx');
      expect(byRoom).toContain('audit_log_details_room_idx');
      expect(await plan({ since: new Date(Date.now() - 60_000).toISOString(), until: new Date().toISOString() })).toMatch(/audit_log_created_at_idx|audit_log_pkey/);
      expect(await plan({ since: new Date(Date.now() - 60_000).toISOString(), until: new Date().toISOString() })).not.toContain('Seq Scan');
    });
  });

  describe('holdings', () => {
    it('counts what a deletion and a demotion would take, by the rules they apply; for the user themself and group admins only', async () => {
      const barbara = await person('Barbara', true);
      const actor: Actor = { label: 'self', userId: barbara.id };
      const mk = async (privacy: 'public' | 'private', owner: number) =>
        (await rpc.send(CreateRoomV1, { actor: admin, name: `Holding ${n++}`, owner: { id: owner }, privacy, topic: '', guestAccess: false })).room;
      const owned = await mk('private', barbara.id);
      await mk('public', barbara.id);
      const joined = await mk('private', admin.userId!);
      await rpc.send(AddMemberV1, { actor: admin, room: { id: joined.id }, user: { id: barbara.id } });
      // A private room she sees only as a group admin, with a webhook of hers in it.
      const notHers = await mk('private', admin.userId!);
      const hook = (roomId: number) => rpc.send(CreateWebhookV1, { actor, room: { id: roomId }, url: `https://receiver.example.com/hooks/${n++}`, event: 'room_message', name: `h${n}` });
      await hook(notHers.id);
      await hook(owned.id);
      await tokensOf(stack.rooms).create('personal', 'bot', { user: String(barbara.id) });
      await signIn(barbara.email, 'nope-nope');
      const tokenHash = hex(n++);
      await invite(barbara.id, tokenHash);
      await accept(tokenHash, 'barbara chose 1');

      const { holdings } = await rpc.send(GetUserHoldingsV1, { actor, user: { id: barbara.id } });
      expect(holdings).toMatchObject({
        userId: barbara.id, isGroupAdmin: true, roomsOwned: 2, privateRooms: 2, apiTokens: 1, sessions: 1, webhooks: 2, bridges: 0,
        ifDemoted: { webhooks: 1, bridges: 0 },
      });
      // Every private room of the test database that is neither hers nor one she is a member of.
      const [others] = await sql(stack.databaseUrl,
        `SELECT count(*)::int AS n FROM rooms r WHERE privacy = 'private' AND owner_user_id <> $1
            AND NOT EXISTS (SELECT 1 FROM room_members m WHERE m.room_id = r.id AND m.user_id = $1)`, [barbara.id]);
      expect(holdings.ifDemoted.privateRooms).toBe(others.n);
      expect(holdings.onDelete).toEqual(expect.arrayContaining(['Their API token stops working.', 'They leave 2 private rooms.', 'Their 2 webhooks are disabled.']));
      expect((await rpc.send(GetUserHoldingsV1, { actor: admin, user: { email: barbara.email } })).holdings.userId).toBe(barbara.id);
      const other = await person('Other');
      expect(await rpc.refused(GetUserHoldingsV1, { actor: { label: 'other', userId: other.id }, user: { id: barbara.id } })).toMatchObject({ code: 'forbidden' });
      expect(await rpc.refused(GetUserHoldingsV1, { actor: { label: 'addon', tokenId: 99999 }, user: { id: barbara.id } })).toMatchObject({ code: 'forbidden' });
    });
  });
});

import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ReportWebhookHealthV1 } from '@app/contracts';
import { Client } from 'pg';
import { RoomsClient } from '../src/shared/rooms-client';
import { eventually, Stack, startStack, V1Response } from '../../../test/support/harness';
import { CLI, ROOT } from '../../../test/support/processes';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
/** The client's address, as a trusted proxy in front of the gateway says it (TRUST_PROXY). */
const CLIENT = '203.0.113.7';
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** A local add-on: its descriptor at /d, its installation callback at /cb (and /cb/{oauthId} to uninstall). */
async function startAddon(): Promise<{ server: Server; descriptorUrl: string }> {
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.method === 'GET' && req.url === '/d') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        key: 'com.example.audited', name: 'Audited add-on', description: 'An add-on of the audit tests',
        links: { self: `${base}/d` },
        capabilities: {
          installable: { callbackUrl: `${base}/cb`, allowRoom: true, allowGlobal: true },
          hipchatApiConsumer: { scopes: ['send_notification'] },
        },
      }));
      return;
    }
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, descriptorUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/d` };
}

describe('GET /v2/audit: who changed access', () => {
  let stack: Stack;
  let s: V2Session;
  let addon: { server: Server; descriptorUrl: string };
  let n = 0;

  /** A call from the client behind the proxy, as the group admin unless another token is given. */
  const call = (verb: string, path: string, opts: V2CallOptions = {}) =>
    v2(stack.baseUrl, verb, path, { token: s.token, ...opts, headers: { 'x-forwarded-for': CLIENT, ...(opts.headers ?? {}) } });
  const ok = (res: V1Response, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
    return res;
  };
  const audit = async (token = s.token) => ok(await call('GET', 'audit', { token, query: { 'max-results': 1000 } }), 200).json;
  /** The newest line of `action` about `target` (type and id). */
  const lineOf = async (action: string, target: { type: string; id: number | null }) => {
    const found = (await audit()).items.find((i: any) => i.action === action && i.target.type === target.type && i.target.id === target.id);
    if (!found) throw new Error(`no ${action} line about ${target.type} ${target.id}`);
    return found;
  };
  const admin = () => ({ type: 'user', id: s.adminId, name: 'Group Admin' });
  const room = async (privacy: 'public' | 'private') => {
    const name = `Audited ${privacy} ${n++}`;
    const res = ok(await call('POST', 'room', { body: { name, privacy } }), 201);
    return { id: res.json.id as number, name };
  };

  beforeAll(async () => {
    stack = await startStack({
      gateway: { PUBLIC_BASE_URL: BASE, V2_RATE_LIMIT_MAX: '100000', TRUST_PROXY: '127.0.0.1', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '2' },
      rooms: {
        PUBLIC_BASE_URL: BASE, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_DISABLE_AFTER: '1s', WEBHOOK_DISABLE_MIN_FAILURES: '1',
        AUDIT_RETENTION_DAYS: '30', AUDIT_PRUNE_EVERY: '1s',
      },
    });
    s = await v2Session(stack);
    addon = await startAddon();
  });

  afterAll(async () => {
    addon?.server.close();
    await stack?.stop();
  });

  it('records a room\'s membership, ownership, privacy, archiving and deletion, with the actor, the target and the client\'s address', async () => {
    const ops = await room('private');
    const ada = await s.createUser('Ada Member');
    ok(await call('PUT', `room/${ops.id}/member/${ada}`), 204);
    ok(await call('DELETE', `room/${ops.id}/member/${ada}`), 204);
    ok(await call('POST', `room/${ops.id}/invite/${ada}`, { body: { reason: 'join us' } }), 204);
    ok(await call('PUT', `room/${ops.id}`, { body: { privacy: 'public', owner: { id: ada }, is_archived: true } }), 204);
    ok(await call('DELETE', `room/${ops.id}`), 204);

    const target = { type: 'room', id: ops.id, name: ops.name };
    expect(await lineOf('room.member_added', target)).toEqual({
      id: expect.any(Number), date: ISO, actor: admin(), action: 'room.member_added', target, details: { user: { id: ada, name: 'Ada Member' } }, address: CLIENT,
    });
    expect(await lineOf('room.member_removed', target)).toMatchObject({ actor: admin(), details: { user: { id: ada } }, address: CLIENT });
    expect(await lineOf('room.member_invited', target)).toMatchObject({ actor: admin(), address: CLIENT });
    expect(await lineOf('room.owner_changed', target)).toMatchObject({ actor: admin(), details: { from: s.adminId, to: { id: ada, name: 'Ada Member' } }, address: CLIENT });
    expect(await lineOf('room.privacy_changed', target)).toMatchObject({ details: { from: 'private', to: 'public' }, address: CLIENT });
    expect(await lineOf('room.archived', target)).toMatchObject({ actor: admin(), address: CLIENT });
    expect(await lineOf('room.deleted', target)).toMatchObject({ actor: admin(), address: CLIENT });

    // Newest first, paginated as every v2 list.
    const items = (await audit()).items.filter((i: any) => i.target.type === 'room' && i.target.id === ops.id).map((i: any) => i.action);
    expect(items).toEqual(['room.deleted', 'room.archived', 'room.privacy_changed', 'room.owner_changed', 'room.member_invited', 'room.member_removed', 'room.member_added']);
    const page = ok(await call('GET', 'audit', { query: { 'start-index': 1, 'max-results': 2 } }), 200).json;
    expect(page).toMatchObject({ startIndex: 1, maxResults: 2, links: { self: `${BASE}/v2/audit`, prev: expect.stringContaining('start-index=0'), next: expect.stringContaining('start-index=3') } });
    expect(page.items.map((i: any) => i.action)).toEqual(['room.archived', 'room.privacy_changed']);
  });

  it('records a user\'s promotion, demotion and deletion', async () => {
    const email = `bea${Date.now()}@example.com`;
    const bea = await s.createUser('Bea User', email);
    ok(await call('PUT', `user/${bea}`, { body: { name: 'Bea User', email, is_group_admin: true } }), 204);
    ok(await call('PUT', `user/${bea}`, { body: { name: 'Bea User', email, is_group_admin: false } }), 204);
    ok(await call('DELETE', `user/${bea}`), 204);
    const target = { type: 'user', id: bea, name: 'Bea User' };
    for (const action of ['user.promoted', 'user.demoted', 'user.deleted']) {
      expect(await lineOf(action, target)).toMatchObject({ actor: admin(), action, target, address: CLIENT });
    }
  });

  it('records a token\'s creation and revocation, never the token', async () => {
    const made = ok(await call('POST', 'token', { body: { label: 'deploy bot', scopes: ['view_room'] } }), 201).json;
    ok(await call('DELETE', `token/${made.id}`), 204);
    const target = { type: 'token', id: made.id, name: 'deploy bot' };
    expect(await lineOf('token.created', target)).toMatchObject({ actor: admin(), details: { kind: 'personal', scopes: ['view_room'] }, address: CLIENT });
    expect(await lineOf('token.revoked', target)).toMatchObject({ actor: admin(), address: CLIENT });
    expect(JSON.stringify(await audit())).not.toContain(made.token);
  });

  it('records a webhook\'s creation, its disabling for failures (with the reason), enabling and deletion; its URL masked as a bridge\'s', async () => {
    const ops = await room('public');
    const created = ok(await call('POST', `room/${ops.id}/webhook`, {
      body: { url: 'https://receiver.example.com/hooks/in?secret=Sup3rS3cret', event: 'room_message', name: 'ci hook' },
    }), 201).json;
    const target = { type: 'webhook', id: created.id, name: 'ci hook' };
    expect(await lineOf('webhook.created', target)).toMatchObject({
      actor: admin(), details: { roomId: ops.id, event: 'room_message', url: 'https://receiver.example.com/hooks/***?secret=***' }, address: CLIENT,
    });

    // What a dispatcher reports after its attempts failed for longer than WEBHOOK_DISABLE_AFTER.
    const now = Date.now();
    const { disabled } = await stack.gateway!.get(RoomsClient, { strict: false }).send(ReportWebhookHealthV1, { reports: [{
      webhookId: created.id, lastSuccessAt: null, failuresAfterSuccess: 3, firstFailureAt: new Date(now - 60_000).toISOString(),
      lastFailureAt: new Date(now).toISOString(), lastError: 'HTTP 500',
    }] });
    expect(disabled).toEqual([created.id]);
    expect(await lineOf('webhook.disabled', target)).toMatchObject({
      actor: { type: 'system', id: null, name: 'rooms service' }, details: { roomId: ops.id, cause: 'failures', reason: expect.stringMatching(/\S/) }, address: null,
    });

    ok(await call('POST', `room/${ops.id}/webhook/${created.id}/enable`), 204);
    expect(await lineOf('webhook.enabled', target)).toMatchObject({ actor: admin(), address: CLIENT });
    ok(await call('DELETE', `room/${ops.id}/webhook/${created.id}`), 204);
    expect(await lineOf('webhook.deleted', target)).toMatchObject({
      actor: admin(), details: { url: 'https://receiver.example.com/hooks/***?secret=***' }, address: CLIENT,
    });

    const text = JSON.stringify(await audit());
    expect(text).not.toContain('Sup3rS3cret');
    expect(text).not.toContain('/hooks/in');
    if (created.secret) expect(text).not.toContain(created.secret);
  });

  it('records an add-on\'s installation and uninstallation', async () => {
    const installed = ok(await call('POST', 'addons', { body: { url: addon.descriptorUrl } }), 201).json;
    const id = installed.id as number;
    ok(await call('DELETE', `addons/${id}`), 204);
    const target = { type: 'addon', id, name: 'Audited add-on' };
    expect(await lineOf('addon.installed', target)).toMatchObject({
      actor: admin(), details: { key: 'com.example.audited', roomId: null, descriptorUrl: addon.descriptorUrl }, address: CLIENT,
    });
    expect(await lineOf('addon.uninstalled', target)).toMatchObject({ actor: admin(), address: CLIENT });
    const text = JSON.stringify(await audit());
    for (const secret of [installed.oauth_secret, installed.oauthSecret]) if (typeof secret === 'string') expect(text).not.toContain(secret);
  });

  it('records a throttled sign-in: the account tried and the address, never the password', async () => {
    const email = `carl${Date.now()}@example.com`;
    const carl = await s.createUser('Carl Guessed', email);
    const guess = () => v2(stack.baseUrl, 'POST', 'session', { body: { email, password: 'wrong-Pa55word' }, headers: { 'x-forwarded-for': '198.51.100.23' } });
    await eventually(async () => expect((await guess()).status).toBe(429));
    const line = await eventually(() => lineOf('session.sign_in_throttled', { type: 'user', id: carl }));
    expect(line).toMatchObject({ actor: { type: 'system' }, target: { type: 'user', id: carl, name: email }, details: { scope: 'address' }, address: '198.51.100.23' });
    expect(JSON.stringify(await audit())).not.toContain('wrong-Pa55word');
  });

  it('is refused (403) to anyone but a group admin', async () => {
    const dan = await s.createUser('Dan NotAdmin');
    const res = await call('GET', 'audit', { token: await s.personalToken(dan) });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 403 });
  });

  it('prunes the lines older than AUDIT_RETENTION_DAYS, and only those', async () => {
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const insert = (days: number) => db.query(
        `INSERT INTO audit_log (created_at, actor_type, actor_name, action, target_type, target_id, target_name)
         VALUES (now() - make_interval(days => $1::int), 'cli', 'cli', 'room.deleted', 'room', $2, 'Old room') RETURNING id`, [days, 900_000 + days]);
      const old = (await insert(31)).rows[0].id;
      const kept = (await insert(29)).rows[0].id;
      await eventually(async () => {
        expect((await db.query('SELECT 1 FROM audit_log WHERE id = $1', [old])).rowCount).toBe(0);
      }, 20_000);
      expect((await db.query('SELECT 1 FROM audit_log WHERE id = $1', [kept])).rowCount).toBe(1);
    } finally {
      await db.end();
    }
  });

  it('is printed by cli audit, as the other list commands print theirs', async () => {
    const ops = await room('private');
    const eve = await s.createUser('Eve Member');
    ok(await call('PUT', `room/${ops.id}/member/${eve}`), 204);
    const cli = async (...args: string[]) =>
      (await promisify(execFile)('node', [CLI, 'audit', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: stack.databaseUrl } })).stdout;
    const [header, line, ...rest] = (await cli('--limit', '1')).split('\n');
    expect(header).toBe('ID\tDATE\tACTOR\tACTION\tTARGET\tADDRESS\tDETAILS');
    expect(line.split('\t')).toEqual([
      expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d{4}-/), `user ${s.adminId} Group Admin`, 'room.member_added', `room ${ops.id} ${ops.name}`, CLIENT,
      JSON.stringify({ user: { id: eve, name: 'Eve Member' } }),
    ]);
    expect(rest).toEqual(['']);
    expect(JSON.parse(await cli('--json', '--limit', '1000'))).toEqual((await audit()).items);
  });
});

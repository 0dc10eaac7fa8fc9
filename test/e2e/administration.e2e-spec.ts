/**
 * A group admin's administration through the gateway, against the three built services as
 * processes: a person added without a password, invited, choosing their password by the link
 * and signed in by it (once); the audit log read by actor, action, room and date; and what
 * deleting or demoting them would take. Logging at debug: neither the link's secret nor a
 * password may appear in any line the services wrote.
 */
import { cli, startTestSystem, TestSystem } from '../support/processes';

describe('administration through the gateway: invitations, the audit log\'s filters, holdings', () => {
  let system: TestSystem;
  let baseUrl: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    system = await startTestSystem('e2e_admin', { LOG_LEVEL: 'debug' });
    baseUrl = system.baseUrl;
  }, 60_000);

  afterAll(async () => {
    await system?.stop();
  }, 30_000);

  const call = async (verb: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: verb, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : undefined) as any };
  };

  it('invites a person added without a password; they choose one, are signed in, and the link works once; the audit log and holdings say so', async () => {
    // A group admin, acting by their personal token.
    const v1Admin = cli(['token', 'create', '--type', 'admin'], system.env).stdout.trim();
    const adminEmail = `admin-${Date.now()}@example.com`;
    const made = await fetch(`${baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Admin, name: 'Ada Admin', email: adminEmail, is_group_admin: '1' }),
    });
    expect(made.status).toBe(200);
    const adminToken = cli(['token', 'create', '--type', 'personal', '--user', adminEmail], system.env).stdout.trim();
    const admin = { authorization: `Bearer ${adminToken}` };
    secrets.push(v1Admin, adminToken);
    // After the set-up's own lines (the admin added, their token made).
    const since = new Date().toISOString();

    // Added without a password (one is generated, as POST /v2/user always did), then invited.
    const grace = await call('POST', '/v2/user', admin, { name: 'Grace Invited', email: 'grace.invited@example.com' });
    expect(grace.status).toBe(201);
    const graceId = grace.json.id as number;
    const invited = await call('POST', `/v2/user/${graceId}/invitation`, admin);
    expect(invited.status).toBe(201);
    expect(invited.headers.get('cache-control')).toBe('no-store');
    expect(invited.json).toEqual({
      url: expect.stringMatching(new RegExp(`^${baseUrl.replace(/[.]/g, '\\.')}/#/invitation/[A-Za-z0-9]{40}$`)),
      expires: expect.any(String), user: { id: graceId, name: 'Grace Invited', email: 'grace.invited@example.com' },
    });
    expect(new Date(invited.json.expires).getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 120_000);
    const token = (invited.json.url as string).split('/').pop()!;
    secrets.push(token);

    // A password that breaks the rule is said so, and the link still works.
    const weak = await call('POST', `/v2/invitation/${token}`, {}, { password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.json.error.message).toMatch(/^password: must be at least \d+ characters/);

    const password = 'Grace chose this 42';
    secrets.push(password);
    const accepted = await call('POST', `/v2/invitation/${token}`, {}, { password });
    expect(accepted.status).toBe(201);
    expect(accepted.json).toEqual({
      user: { id: graceId, name: 'Grace Invited', mention_name: expect.any(String), email: 'grace.invited@example.com', is_group_admin: false },
      csrf_token: expect.any(String), expires: expect.any(String),
    });
    const cookie = accepted.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^chat_session=[A-Za-z0-9]{40}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=\d+$/);
    const session = { cookie: cookie.split(';')[0] };
    secrets.push(cookie.split(';')[0].split('=')[1], accepted.json.csrf_token);
    expect((await call('GET', '/v2/session', session)).json.user.id).toBe(graceId);
    // The password is hers now: she signs in with it.
    expect((await call('POST', '/v2/session', {}, { email: 'grace.invited@example.com', password })).status).toBe(201);

    // The same link again, and a link that never was: the same 404.
    const again = await call('POST', `/v2/invitation/${token}`, {}, { password: 'Another choice 99' });
    const never = await call('POST', `/v2/invitation/${'A'.repeat(40)}`, {}, { password: 'Another choice 99' });
    expect(again.status).toBe(404);
    expect(never.status).toBe(404);
    expect(again.json.error.message).toBe(never.json.error.message);
    expect(again.json.error.message).toMatch(/unknown, used or expired/);

    // A private room she is made a member of: a line about the room.
    const room = await call('POST', '/v2/room', admin, { name: 'Invited Room', privacy: 'private' });
    expect(room.status).toBe(201);
    expect((await call('PUT', `/v2/room/${room.json.id}/member/${graceId}`, admin)).status).toBe(204);

    // The audit log: both lines, and each filter.
    const audit = async (query: Record<string, string>) => {
      const res = await call('GET', `/v2/audit?${new URLSearchParams({ since, ...query })}`, admin);
      expect(res.status).toBe(200);
      return res.json;
    };
    const all = await audit({});
    expect(all.items.map((l: { action: string }) => l.action)).toEqual(['room.member_added', 'user.invitation_accepted', 'user.invited', 'user.created']);
    expect(JSON.stringify(all)).not.toContain(token);
    expect((await audit({ actor: 'grace.invited@example.com' })).items).toEqual([
      expect.objectContaining({ action: 'user.invitation_accepted', actor: { type: 'user', id: graceId, name: 'Grace Invited' } }),
    ]);
    expect((await audit({ actor: adminEmail, action: 'user.invited' })).items).toEqual([
      expect.objectContaining({ action: 'user.invited', target: { type: 'user', id: graceId, name: 'Grace Invited' } }),
    ]);
    expect((await audit({ room: String(room.json.id) })).items.map((l: { action: string }) => l.action)).toEqual(['room.member_added']);
    expect((await audit({ since: '2000-01-01', until: '2000-01-02T00:00:00Z' })).items).toEqual([]);
    expect((await call('GET', `/v2/audit?since=${encodeURIComponent(since)}&until=${encodeURIComponent(since)}`, admin)).json.error.message).toBe('until: must be after since');
    const today = new Date().toISOString().slice(0, 10);
    const ofToday = (await audit({ since: today, until: today })).items.map((l: { id: number }) => l.id);
    expect(ofToday).toEqual(expect.arrayContaining(all.items.map((l: { id: number }) => l.id)));
    // Paging keeps the filters.
    const first = await audit({ actor: adminEmail, 'max-results': '1' });
    expect(first.items).toHaveLength(1);
    const next = new URL(first.links.next);
    expect(Object.fromEntries(next.searchParams)).toMatchObject({ actor: adminEmail, since, 'start-index': '1', 'max-results': '1' });
    const bad = await call('GET', '/v2/audit?action=user.teleported', admin);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^action: must be one of /);
    expect((await call('GET', '/v2/audit?since=yesterday', admin)).json.error.message).toMatch(/^since: /);

    // What deleting or demoting her would take: read by the admin, and by herself.
    const holdings = await call('GET', `/v2/user/${graceId}/holdings`, admin);
    expect(holdings.status).toBe(200);
    expect(holdings.json).toMatchObject({
      user_id: graceId, is_group_admin: false, rooms_owned: 0, private_rooms: 1, api_tokens: 0, sessions: 2, webhooks: 0, bridges: 0,
      if_demoted: { private_rooms: 0, webhooks: 0, bridges: 0 },
      on_demote: ['They are not a group admin: there is nothing to demote.'],
    });
    expect(holdings.json.on_delete).toEqual(expect.arrayContaining(['Their 2 sessions end at once.', 'They leave 1 private room.']));
    expect((await call('GET', `/v2/user/${graceId}/holdings`, session)).json.user_id).toBe(graceId);
    expect((await call('GET', `/v2/user/${adminEmail}/holdings`, session)).status).toBe(403);
    const adminHoldings = await call('GET', `/v2/user/${adminEmail}/holdings`, admin);
    expect(adminHoldings.json).toMatchObject({ is_group_admin: true, rooms_owned: 1, private_rooms: 1, api_tokens: 1 });
    expect(adminHoldings.json.on_demote[0]).toMatch(/^They can no longer administer the group/);
  }, 90_000);

  it('wrote no secret in any log line', async () => {
    await new Promise((r) => setTimeout(r, 500));
    const log = [...system.launched.lines, ...system.launched.stderr.split('\n')].join('\n');
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(log.includes(secret) ? secret : '').toBe('');
  });
});

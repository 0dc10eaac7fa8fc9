/**
 * Losing access loses everything (issue 34, section 2), on the built system as `npm start`
 * runs it, with a second gateway and a second dispatcher replica beside it.
 *
 * For each way of losing access to a room (removed from a private room, the room made
 * private while not a member, the user deleted, a group admin demoted while not a member;
 * and an add-on uninstalled, whose webhooks go with it),
 * 20 rounds in a row: the change, then at once a message. The webhook the loser created
 * does not get it (it is disabled, `creator_lost_access`), their live stream (on either
 * gateway) ends without it and does not resume with Last-Event-ID, while a control webhook
 * of the owner gets it: the test waits for the control's arrival, then looks at the rest.
 * A revoked token's streams end the same way, while the webhooks registered with it, its
 * user's, keep receiving. And a reply from a webhook whose creator was removed while the
 * delivery was in flight is not posted.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { generateApiToken, hashApiToken } from '@app/common';
import { eventually } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { cli, Launched, startTestSystem, TestSystem, waitForHttp } from '../support/processes';
import { startGreeter, WEBHOOK_PATH } from './addon/greeter';
import { LiveClient } from './support-live';
import { Receiver } from './support-webhooks';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SERVICES } = require('../../scripts/services') as { SERVICES: Array<{ name: string; entry: string; flags: string[] }> };

const SCOPES = ['admin_group', 'admin_room', 'manage_rooms', 'send_message', 'send_notification', 'view_group', 'view_messages', 'view_room'];
const ROUNDS = 20;

describe('losing access to a room: no more webhook deliveries, no more live events, no replies (two gateways, two dispatchers)', () => {
  let stack: TestSystem;
  let gateways: string[];
  const extra: Launched[] = [];
  let db: Client;
  let receiver: Receiver;
  let boss: string;
  let seq = 0;
  const streams: LiveClient[] = [];

  const v2 = (token: string, verb: string, path: string, body?: unknown, at = gateways[0]): Promise<Answer> => v2Call(at, token, verb, path, body);

  /** A user (group admin or not) with a personal token, made as fast as a round needs (the token straight in its table). */
  async function user(name: string, isGroupAdmin = false): Promise<{ id: number; token: string }> {
    const made = await v2(boss, 'POST', '/user', { name, email: `${name.toLowerCase().replace(/\W+/g, '-')}-${++seq}@example.com`, is_group_admin: isGroupAdmin });
    expect(made.status).toBe(201);
    return { id: made.body.id, token: (await personalToken(made.body.id)).token };
  }

  async function personalToken(userId: number): Promise<{ id: number; token: string }> {
    const token = generateApiToken();
    const made = await db.query(`INSERT INTO api_tokens (token_hash, kind, label, user_id, scopes) VALUES ($1, 'personal', 'lost-access test', $2, $3) RETURNING id`,
      [hashApiToken(token), userId, SCOPES]);
    return { id: made.rows[0].id, token };
  }

  async function room(privacy: 'public' | 'private'): Promise<number> {
    const made = await v2(boss, 'POST', '/room', { name: `Lost ${privacy} ${++seq}`, privacy });
    expect(made.status).toBe(201);
    return made.body.id;
  }

  async function webhook(token: string, roomId: number, path: string, answer = { status: 204 }): Promise<number> {
    const made = await v2(token, 'POST', `/room/${roomId}/webhook`, { url: receiver.route(path, answer), event: 'room_message', name: path });
    expect(made.status).toBe(201);
    return made.body.id;
  }

  const withText = (path: string, text: string) => receiver.to(path).find((h) => h.json?.item?.message?.message === text);

  /** The stream's end (within 10 s: "within a second" on an idle machine), and what it carried. */
  async function endOf(stream: LiveClient): Promise<{ ended: boolean; messages: string[]; problem?: string }> {
    const ended = await Promise.race([stream.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000).unref())]);
    const problem = stream.events.find((e) => e.event === 'error')?.json?.error?.code;
    return { ended, messages: stream.events.filter((e) => e.event === 'room_message').map((e) => e.json?.message?.message), ...(problem ? { problem } : {}) };
  }

  /**
   * One round: the loser's webhook and live stream in the room, the owner's control webhook,
   * then the change and at once a message.
   */
  async function round(kind: string, i: number, o: {
    roomId: number; loser: { token: string }; control: string; change(): Promise<void>; problems?: string[];
  }): Promise<void> {
    const lostPath = `/lost/${kind}/${i}`;
    const lostId = await webhook(o.loser.token, o.roomId, lostPath);
    const gateway = gateways[i % 2];
    const stream = await LiveClient.open(gateway, `/v2/room/${o.roomId}/events`, { authorization: `Bearer ${o.loser.token}` });
    streams.push(stream);
    expect(stream.status).toBe(200);

    await o.change();
    const text = `after ${kind} ${i}`;
    expect((await v2(boss, 'POST', `/room/${o.roomId}/message`, { message: text }, gateways[(i + 1) % 2])).status).toBe(201);

    await receiver.waitFor(`the control's copy of "${text}"`, () => withText(o.control, text), 15_000);
    expect({ round: i, lost: receiver.to(lostPath).map((h) => h.json?.item?.message?.message) }).toEqual({ round: i, lost: [] });
    const end = await endOf(stream);
    expect({ round: i, ...end }).toEqual({ round: i, ended: true, messages: [], problem: expect.stringMatching(new RegExp(`^(${(o.problems ?? ['access_revoked']).join('|')})$`)) });
    // Last-Event-ID does not resume it.
    const again = await LiveClient.open(gateways[(i + 1) % 2], `/v2/room/${o.roomId}/events`, { authorization: `Bearer ${o.loser.token}`, 'last-event-id': '1' });
    streams.push(again);
    expect({ round: i, refused: [401, 403, 404].includes(again.status) }).toEqual({ round: i, refused: true });
    // The webhook says why it was disabled.
    const record = await v2(boss, 'GET', `/room/${o.roomId}/webhook/${lostId}`);
    expect({ round: i, enabled: record.body.enabled, reason: record.body.disabled_reason }).toEqual({ round: i, enabled: false, reason: 'creator_lost_access' });
  }

  beforeAll(async () => {
    stack = await startTestSystem('e2e_lost', {
      // 127.0.0.1 too: the add-on (ac-koa-hipchat's Greeter) listens there.
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', OUTBOX_POLL_MS: '200', LIVE_HEARTBEAT_SECONDS: '1',
      FLOOD_CONTROL_MAX: '100000', RATE_LIMIT_MAX: '100000', V2_RATE_LIMIT_MAX: '100000', WEBHOOKS_PER_ROOM_MAX: '100',
    });
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    receiver = await Receiver.start('127.0.0.2');
    const v1Token = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const email = `boss-${Date.now()}@example.com`;
    const res = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name: 'Boss', email, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    boss = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', SCOPES.join(',')], stack.env).stdout.trim();

    // A second gateway (port 0, read back from its log) and a second dispatcher, as processes of their own.
    const start = (name: string, env: Record<string, string>) => {
      const service = SERVICES.find((s) => s.name === name)!;
      const launched = new Launched(spawn(process.execPath, [...service.flags, service.entry], {
        env: { ...process.env, ...stack.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
      }) as ChildProcess);
      extra.push(launched);
      return launched;
    };
    const second = start('gateway', { PORT: '0' });
    const dispatcher = start('webhook-dispatcher', {});
    const secondUrl = String((await second.waitForLog((l) => l.msg === 'gateway listening')).url).replace('0.0.0.0', '127.0.0.1');
    await waitForHttp(`${secondUrl}/health`);
    await dispatcher.waitForLog((l) => l.msg === 'consuming room events');
    gateways = [stack.baseUrl, secondUrl];
  }, 120_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    for (const launched of extra) {
      if (launched.child.exitCode === null) {
        launched.child.kill('SIGKILL');
        await launched.exited;
      }
    }
    await receiver?.stop();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  }, 60_000);

  it(`a member removed from a private room by its owner, ${ROUNDS} times`, async () => {
    const ada = await user('Ada');
    for (let i = 0; i < ROUNDS; i++) {
      const roomId = await room('private');
      expect((await v2(boss, 'PUT', `/room/${roomId}/member/${ada.id}`)).status).toBe(204);
      const control = `/control/removed/${i}`;
      await webhook(boss, roomId, control);
      await round('removed', i, {
        roomId, loser: ada, control,
        change: async () => expect((await v2(boss, 'DELETE', `/room/${roomId}/member/${ada.id}`)).status).toBe(204),
      });
    }
  }, 120_000);

  it(`a public room made private while the reader is not a member, ${ROUNDS} times`, async () => {
    const bob = await user('Bob');
    for (let i = 0; i < ROUNDS; i++) {
      const roomId = await room('public');
      const control = `/control/private/${i}`;
      await webhook(boss, roomId, control);
      await round('private', i, {
        roomId, loser: bob, control,
        change: async () => {
          const now = await v2(boss, 'GET', `/room/${roomId}`);
          expect((await v2(boss, 'PUT', `/room/${roomId}`, { name: now.body.name, privacy: 'private' })).status).toBe(204);
        },
      });
    }
  }, 120_000);

  it(`a user deleted, ${ROUNDS} times`, async () => {
    const roomId = await room('public');
    const control = '/control/deleted';
    await webhook(boss, roomId, control);
    for (let i = 0; i < ROUNDS; i++) {
      const eve = await user(`Eve ${i}`);
      await round('deleted', i, {
        roomId, loser: eve, control, problems: ['access_revoked', 'token_revoked'],
        change: async () => expect((await v2(boss, 'DELETE', `/user/${eve.id}`)).status).toBe(204),
      });
    }
  }, 120_000);

  it(`a group admin demoted while not a member of a private room, ${ROUNDS} times`, async () => {
    const roomId = await room('private');
    const control = '/control/demoted';
    await webhook(boss, roomId, control);
    for (let i = 0; i < ROUNDS; i++) {
      const dan = await user(`Dan ${i}`, true);
      await round('demoted', i, {
        roomId, loser: dan, control,
        change: async () => {
          const now = await v2(boss, 'GET', `/user/${dan.id}`);
          expect((await v2(boss, 'PUT', `/user/${dan.id}`, { name: now.body.name, email: now.body.email, is_group_admin: false })).status).toBe(204);
        },
      });
    }
  }, 120_000);

  it(`a token revoked: its streams end, ${ROUNDS} times; the webhook registered with it is its user's and keeps receiving`, async () => {
    const hal = await user('Hal', true);
    const roomId = await room('public');
    const control = '/control/revoked';
    await webhook(boss, roomId, control);
    for (let i = 0; i < ROUNDS; i++) {
      const t = await personalToken(hal.id);
      const kept = `/kept/revoked/${i}`;
      await webhook(t.token, roomId, kept);
      const stream = await LiveClient.open(gateways[i % 2], `/v2/room/${roomId}/events`, { authorization: `Bearer ${t.token}` });
      streams.push(stream);
      expect(stream.status).toBe(200);

      expect((await v2(hal.token, 'DELETE', `/token/${t.id}`, undefined, gateways[(i + 1) % 2])).status).toBe(204);
      const text = `after revoked ${i}`;
      expect((await v2(boss, 'POST', `/room/${roomId}/message`, { message: text }, gateways[(i + 1) % 2])).status).toBe(201);

      await receiver.waitFor(`the control's copy of "${text}"`, () => withText(control, text), 15_000);
      await receiver.waitFor(`the revoked token's webhook's copy of "${text}"`, () => withText(kept, text), 15_000);
      expect({ round: i, ...(await endOf(stream)) }).toEqual({ round: i, ended: true, messages: [], problem: 'token_revoked' });
      const again = await LiveClient.open(gateways[i % 2], `/v2/room/${roomId}/events`, { authorization: `Bearer ${t.token}`, 'last-event-id': '1' });
      streams.push(again);
      expect({ round: i, status: again.status }).toEqual({ round: i, status: 401 });
    }
  }, 120_000);

  it(`an add-on uninstalled, ${ROUNDS} times: its declared webhooks get nothing committed after, on either dispatcher`, async () => {
    const greeter = await startGreeter({ key: 'greeter-lost-access', name: 'Lost Greeter' });
    try {
      const roomId = await room('public');
      const control = '/control/uninstalled';
      await webhook(boss, roomId, control);
      const got = (text: string) => greeter.requests.filter((r) => r.method === 'POST' && r.path === WEBHOOK_PATH && r.body?.item?.message?.message === text);
      for (let i = 0; i < ROUNDS; i++) {
        const installed = await v2(boss, 'POST', '/addons', { url: greeter.descriptorUrl, room: roomId });
        expect({ round: i, status: installed.status }).toEqual({ round: i, status: 201 });
        // Installed and receiving: it gets a message sent now.
        const before = `/hello before uninstall ${i}`;
        expect((await v2(boss, 'POST', `/room/${roomId}/message`, { message: before })).status).toBe(201);
        await greeter.waitFor(`the add-on's copy of "${before}"`, () => got(before).length > 0, 15_000);

        expect((await v2(boss, 'DELETE', `/addons/${installed.body.id}`, undefined, gateways[i % 2])).status).toBe(204);
        const after = `/hello after uninstall ${i}`;
        expect((await v2(boss, 'POST', `/room/${roomId}/message`, { message: after }, gateways[(i + 1) % 2])).status).toBe(201);
        await receiver.waitFor(`the control's copy of "${after}"`, () => withText(control, after), 15_000);
        expect({ round: i, got: got(after).length }).toEqual({ round: i, got: 0 });
      }
    } finally {
      await greeter.stop();
    }
  }, 120_000);

  it('only someone who may read the room enables the webhook again: not its creator while still out', async () => {
    const fay = await user('Fay');
    const roomId = await room('private');
    expect((await v2(boss, 'PUT', `/room/${roomId}/member/${fay.id}`)).status).toBe(204);
    const id = await webhook(fay.token, roomId, '/lost/enable');
    expect((await v2(boss, 'DELETE', `/room/${roomId}/member/${fay.id}`)).status).toBe(204);
    const refused = await v2(fay.token, 'POST', `/room/${roomId}/webhook/${id}/enable`);
    expect(refused.status).toBeGreaterThanOrEqual(403);
    expect(refused.status).toBeLessThanOrEqual(404);
    // Nor the owner, while its creator is out: her server would get the room's events again.
    const ownerRefused = await v2(boss, 'POST', `/room/${roomId}/webhook/${id}/enable`);
    expect({ status: ownerRefused.status, message: ownerRefused.body.error?.message }).toEqual({ status: 400, message: expect.stringContaining(`its creator (user ${fay.id}) may not read room`) });
    const record = await v2(boss, 'GET', `/room/${roomId}/webhook/${id}`);
    expect({ enabled: record.body.enabled, reason: record.body.disabled_reason }).toEqual({ enabled: false, reason: 'creator_lost_access' });
    // With access again, it is enabled.
    expect((await v2(boss, 'PUT', `/room/${roomId}/member/${fay.id}`)).status).toBe(204);
    expect((await v2(boss, 'POST', `/room/${roomId}/webhook/${id}/enable`)).status).toBe(204);
  }, 30_000);

  it('a reply from a webhook whose creator was removed while the delivery was in flight is not posted', async () => {
    // A receiver that holds its answer until told.
    let held: ServerResponse | undefined;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => (held = res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    try {
      const gus = await user('Gus');
      const roomId = await room('private');
      expect((await v2(boss, 'PUT', `/room/${roomId}/member/${gus.id}`)).status).toBe(204);
      const url = `http://127.0.0.2:${(server.address() as AddressInfo).port}/hold`;
      const made = await v2(gus.token, 'POST', `/room/${roomId}/webhook`, { url, event: 'room_message', name: 'held' });
      expect(made.status).toBe(201);
      expect((await v2(boss, 'POST', `/room/${roomId}/message`, { message: 'answer me' })).status).toBe(201);
      const res = await eventually(() => {
        if (!held) throw new Error('the delivery has not arrived');
        return held;
      }, 15_000);

      expect((await v2(boss, 'DELETE', `/room/${roomId}/member/${gus.id}`)).status).toBe(204);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'posted after the removal' }));

      const outcome = await eventually(async () => {
        const rows = await db.query('SELECT reply_message_id, reply_error FROM webhook_deliveries WHERE webhook_id = $1', [made.body.id]);
        if (!rows.rows[0] || (rows.rows[0].reply_message_id === null && rows.rows[0].reply_error === null)) throw new Error('the reply has no outcome yet');
        return rows.rows[0];
      }, 15_000);
      expect(outcome).toEqual({ reply_message_id: null, reply_error: expect.stringMatching(/refused the reply.*may no longer read this room/) });
      const history = await v2(boss, 'GET', `/room/${roomId}/history`);
      expect(history.status).toBe(200);
      expect(JSON.stringify(history.body)).not.toContain('posted after the removal');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);
});

/**
 * Live connections end to end (issue 14): GET /v2/room/{room}/events on the built system, as
 * `npm start` runs it, with a second gateway replica started beside it.
 *
 * - Events caused through v1 and v2 arrive in order, with consecutive ids, the webhook event
 *   names, and the very items webhooks registered on the room receive.
 * - A client that reconnects with Last-Event-ID (header or last_event_id) gets exactly what it
 *   missed; one whose id is older than what is kept gets the error event.
 * - A client on either replica sees every event; the gateway's graceful stop ends its streams.
 * - Refusals (no token, a token confined to another room, a missing scope, an unknown room,
 *   a malformed id) are the v2 JSON error bodies, before any stream.
 *
 * LIVE_EVENTS_RETENTION is 4 s, so that the expiry shows without waiting a day.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import { generateApiToken, hashApiToken } from '@app/common';
import { eventually } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { cli, Launched, startTestSystem, TestSystem, waitForHttp } from '../support/processes';
import { LiveClient, SseMessage } from './support-live';
import { Receiver } from './support-webhooks';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SERVICES } = require('../../scripts/services') as { SERVICES: Array<{ name: string; entry: string; flags: string[] }> };

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
const HOOKED = ['room_message', 'room_notification', 'room_topic_change', 'room_enter', 'room_exit'] as const;

describe('live connections: GET /v2/room/{room}/events across the built system and two gateway replicas', () => {
  let stack: TestSystem;
  let baseUrl: string;
  let secondUrl: string;
  let second: Launched;
  let db: Client;
  let receiver: Receiver;
  let v1Token: string;
  let token: string;
  let admin: { id: number; email: string };
  const clients: LiveClient[] = [];

  const v2 = (verb: string, path: string, body?: unknown, t = token): Promise<Answer> => v2Call(baseUrl, t, verb, path, body);
  const live = async (url: string, path: string, headers: Record<string, string> = {}) => {
    const client = await LiveClient.open(url, path, headers);
    clients.push(client);
    return client;
  };
  const bearer = (t = token) => ({ authorization: `Bearer ${t}` });

  /**
   * A new public room, once its room_created is in its log. The relay publishes it a moment
   * after the answer: a stream opened before then would show it (or read it from the log, the
   * moment a later event shows the gap), which is not what the tests that open one next look at.
   */
  async function createRoom(name: string): Promise<number> {
    const made = await v2('POST', '/room', { name, privacy: 'public' });
    expect(made.status).toBe(201);
    const fromStart = await live(baseUrl, `/v2/room/${made.body.id}/events?last_event_id=0`, bearer());
    expect(fromStart.status).toBe(200);
    expect((await fromStart.waitForEvents(1)).map((e) => e.event)).toEqual(['room_created']);
    fromStart.close();
    return made.body.id;
  }

  async function say(roomId: number, message: string): Promise<void> {
    expect((await v2('POST', `/room/${roomId}/message`, { message })).status).toBe(201);
  }

  beforeAll(async () => {
    stack = await startTestSystem('e2e_live', {
      LIVE_EVENTS_RETENTION: '4s', LIVE_HEARTBEAT_SECONDS: '1', OUTBOX_POLL_MS: '200',
      FLOOD_CONTROL_MAX: '10000', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32',
    });
    baseUrl = stack.baseUrl;
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    receiver = await Receiver.start('127.0.0.2');
    v1Token = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const email = `live-admin-${Date.now()}@example.com`;
    const res = await fetch(`${baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name: 'Live Admin', email, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    token = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', ADMIN_SCOPES], stack.env).stdout.trim();
    admin = { id: (await v2('GET', `/user/${encodeURIComponent(email)}`)).body.id, email };

    // A second gateway replica on the same namespace, as another process. Port 0, read back
    // from its log: a port picked here and bound later could be taken meanwhile by another
    // suite's system (jest runs two at once), which would then talk to this gateway.
    const gateway = SERVICES.find((s) => s.name === 'gateway')!;
    second = new Launched(spawn(process.execPath, [...gateway.flags, gateway.entry], {
      env: { ...process.env, ...stack.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
    }) as ChildProcess);
    secondUrl = String((await second.waitForLog((l) => l.msg === 'gateway listening')).url).replace('0.0.0.0', '127.0.0.1');
    await waitForHttp(`${secondUrl}/health`);
  }, 90_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    if (second && second.child.exitCode === null) {
      second.child.kill('SIGKILL');
      await second.exited;
    }
    await receiver?.stop();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  }, 30_000);

  describe('refusals come before the stream, as the v2 error body', () => {
    let roomId: number;
    beforeAll(async () => {
      roomId = await createRoom('Guarded Live');
    });

    it('no token: 401', async () => {
      const c = await live(baseUrl, `/v2/room/${roomId}/events`);
      expect({ status: c.status, body: c.body }).toEqual({ status: 401, body: { error: { code: 401, type: 'Unauthorized', message: expect.stringContaining('require a token') } } });
    });

    it('a token without view_messages: 403 naming the scope', async () => {
      const narrow = cli(['token', 'create', '--type', 'personal', '--user', admin.email, '--scopes', 'send_message'], stack.env).stdout.trim();
      const c = await live(baseUrl, `/v2/room/${roomId}/events`, bearer(narrow));
      expect({ status: c.status, body: c.body }).toEqual({ status: 403, body: { error: { code: 403, type: 'Forbidden', message: expect.stringContaining('view_messages') } } });
    });

    it('a token confined to another room (as a room-installed add-on with view_messages): 403', async () => {
      const other = await createRoom('Elsewhere Live');
      // What a room-installed add-on's token is: confined to its room, with the scopes it was granted.
      const clear = generateApiToken();
      await db.query(`INSERT INTO api_tokens (token_hash, kind, label, room_id, scopes) VALUES ($1, 'addon', 'room add-on', $2, '{view_messages}')`,
        [hashApiToken(clear), other]);
      const refused = await live(baseUrl, `/v2/room/${roomId}/events`, bearer(clear));
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: { error: { code: 403, type: 'Forbidden', message: expect.any(String) } } });
      // Its own room it may watch.
      const own = await live(baseUrl, `/v2/room/${other}/events`, bearer(clear));
      expect(own.status).toBe(200);
      own.close();
    });

    it("a private room the user may not see: 404 as if it did not exist, never the room's name", async () => {
      const made = await v2('POST', '/room', { name: `Hidden Live ${Date.now()}`, privacy: 'private' });
      expect(made.status).toBe(201);
      const email = `live-outsider-${Date.now()}@example.com`;
      const res = await fetch(`${baseUrl}/v1/users/create`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ auth_token: v1Token, name: 'Live Outsider', email }),
      });
      expect(res.status).toBe(200);
      const outsider = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', 'view_messages'], stack.env).stdout.trim();
      const refused = await live(baseUrl, `/v2/room/${made.body.id}/events`, bearer(outsider));
      expect({ status: refused.status, body: refused.body })
        .toEqual({ status: 404, body: { error: { code: 404, type: 'Not Found', message: `Room ${made.body.id} not found` } } });
    });

    it('an unknown room: 404; a malformed Last-Event-ID: 400 naming it', async () => {
      const unknown = await live(baseUrl, '/v2/room/No%20Such%20Room/events', bearer());
      expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: { error: { code: 404, type: 'Not Found', message: 'Room No Such Room not found' } } });
      const bad = await live(baseUrl, `/v2/room/${roomId}/events`, { ...bearer(), 'last-event-id': 'yesterday' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/^Last-Event-ID: must be/);
    });
  });

  describe('one room, watched while it changes', () => {
    let roomId: number;
    let first: LiveClient;

    beforeAll(async () => {
      roomId = await createRoom('Live Room');
      for (const event of HOOKED) {
        const made = await v2('POST', `/room/${roomId}/webhook`, { url: receiver.route(`/live/${event}`, { status: 204 }), event });
        expect(made.status).toBe(201);
      }
    });

    it('sends each event as it happens: in order, consecutive ids, the webhook event names and the webhooks\' items', async () => {
      first = await live(baseUrl, `/v2/room/${roomId}/events`, bearer());
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(first.headers['x-ratelimit-limit']).toBeDefined();

      // Through v1 (a notification), then v2: a message, a notification, a topic, enter and exit.
      const v1 = await fetch(`${baseUrl}/v1/rooms/message`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ auth_token: v1Token, room_id: String(roomId), from: 'CI', message: 'from v1' }),
      });
      expect(v1.status).toBe(200);
      await say(roomId, 'from v2');
      expect((await v2('POST', `/room/${roomId}/notification`, { message: 'v2 notice', color: 'green' })).status).toBe(204);
      expect((await v2('PUT', `/room/${roomId}/topic`, { topic: 'live topic' })).status).toBe(204);
      expect((await v2('PUT', `/room/${roomId}/participant/${admin.id}`)).status).toBe(204);
      expect((await v2('DELETE', `/room/${roomId}/participant/${admin.id}`)).status).toBe(204);

      const got = (await first.waitForEvents(6)).slice(0, 6);
      expect(got.map((e) => e.event)).toEqual(['room_notification', 'room_message', 'room_notification', 'room_topic_change', 'room_enter', 'room_exit']);
      const ids = got.map((e) => Number(e.id));
      expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
      expect(got[0].json).toMatchObject({ room: { id: roomId }, message: { message: 'from v1' } });
      expect(got[3].json).toMatchObject({ room: { id: roomId }, topic: 'live topic' });

      // Each item is the one the webhook for that event received, field for field.
      const hooked = await receiver.waitFor('the six deliveries', () => {
        const hits = HOOKED.flatMap((event) => receiver.to(`/live/${event}`));
        return hits.length >= 6 ? hits : undefined;
      });
      const itemKey = (event: string, item: any) => `${event}:${item.message?.id ?? item.topic ?? item.sender?.id}`;
      const received = new Map(hooked.map((h) => [itemKey(h.json.event, h.json.item), h.json.item]));
      for (const e of got) expect({ event: e.event, item: e.json }).toEqual({ event: e.event, item: received.get(itemKey(e.event!, e.json)) });
    });

    it('resumes with Last-Event-ID: exactly what was missed, then live again', async () => {
      const last = first.ids[first.ids.length - 1];
      first.close();
      await first.ended;
      for (const m of ['missed 1', 'missed 2', 'missed 3']) await say(roomId, m);

      const again = await live(baseUrl, `/v2/room/${roomId}/events`, { ...bearer(), 'last-event-id': String(last) });
      expect(again.status).toBe(200);
      const resumed = await again.waitForEvents(3);
      expect(resumed.map((e) => [Number(e.id), e.json.message.message])).toEqual([[last + 1, 'missed 1'], [last + 2, 'missed 2'], [last + 3, 'missed 3']]);
      await say(roomId, 'live again');
      await again.waitForEvents(4);
      expect(again.ids).toEqual([last + 1, last + 2, last + 3, last + 4]);
      await new Promise((r) => setTimeout(r, 300));
      expect(again.events).toHaveLength(4);

      // The query parameter, for clients that cannot set the header: the same.
      const byQuery = await live(baseUrl, `/v2/room/${roomId}/events?last_event_id=${last + 2}`, bearer());
      await byQuery.waitForEvents(2);
      expect(byQuery.ids).toEqual([last + 3, last + 4]);
      again.close();
      byQuery.close();
    });

    it('carries a shared file with its plain URLs, on the room\'s stream and its owner\'s; the webhook gets signed links', async () => {
      const hook = await v2('POST', `/room/${roomId}/webhook`, { url: receiver.route('/live/room_file_upload', { status: 204 }), event: 'room_file_upload' });
      expect(hook.status).toBe(201);
      const roomStream = await live(baseUrl, `/v2/room/${roomId}/events`, bearer());
      const personStream = await live(baseUrl, `/v2/user/${admin.id}/events`, bearer());
      expect([roomStream.status, personStream.status]).toEqual([200, 200]);
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('live file')], { type: 'text/plain' }), 'live.txt');
      const shared = await fetch(`${baseUrl}/v2/room/${roomId}/share/file`, { method: 'POST', headers: bearer(), body: form });
      expect(shared.status).toBe(204);

      const fileOf = (client: LiveClient) => eventually(() => {
        const got = client.events.filter((e) => e.event === 'room_file_upload');
        expect(got).toHaveLength(1);
        return got[0].json.file as { name: string; url: string };
      }, 10_000);
      const plain = await fileOf(roomStream);
      // People never get a bearer link: they fetch with their token or session, judged at every request.
      expect(plain).toEqual({ name: 'live.txt', size: 9, url: expect.stringMatching(/\/files\/[0-9a-f]{2}\/[0-9a-f-]{36}\/live\.txt$/) });
      expect(await fileOf(personStream)).toEqual(plain);
      const got = await fetch(`${baseUrl}${new URL(plain.url).pathname}`, { headers: bearer() });
      expect([got.status, await got.text()]).toEqual([200, 'live file']);

      const hit = await receiver.waitFor('the file delivery', () => receiver.to('/live/room_file_upload')[0]);
      expect(hit.json.item.file.url).toMatch(new RegExp(`^${plain.url.replace(/[.?]/g, '\\$&')}\\?expires=\\d+&issued=\\d+&signature=`));
      // The integration's link is a credential until it expires: fetched, it is logged without its signature.
      const signed = new URL(hit.json.item.file.url);
      const signature = signed.searchParams.get('signature')!;
      expect((await fetch(signed)).status).toBe(200);
      const line = await stack.launched.waitForLog((l) => l.msg === 'request' && String(l.url).startsWith(`${signed.pathname}?`));
      expect(line.url).toBe(`${signed.pathname}?expires=${signed.searchParams.get('expires')}&issued=${signed.searchParams.get('issued')}&signature=[REDACTED]`);
      expect(stack.launched.logs((l) => JSON.stringify(l).includes(signature))).toEqual([]);
      roomStream.close();
      personStream.close();
    });

    it('keeps an idle connection alive with comment lines (LIVE_HEARTBEAT_SECONDS=1)', async () => {
      const idle = await live(baseUrl, `/v2/room/${roomId}/events`, bearer());
      await eventually(() => expect(idle.comments.length).toBeGreaterThanOrEqual(2), 5_000);
      expect(idle.events).toEqual([]);
      idle.close();
    });

    it('answers an id older than what is kept with the error event, then ends the stream', async () => {
      const [{ last }] = (await db.query('SELECT last_seq::int AS last FROM room_sequences WHERE room_id = $1', [roomId])).rows;
      await say(roomId, 'to age out');
      // The relay prunes what is older than LIVE_EVENTS_RETENTION (4 s), every 4 s: wait until
      // every event before this one is gone. (Only the first gone is not enough: the second,
      // published a moment after it, can outlive it by one pruning, and then what follows
      // Last-Event-ID 1 is still all there.)
      await eventually(async () => {
        const { rows } = await db.query('SELECT min(seq)::int AS oldest FROM room_events WHERE room_id = $1', [roomId]);
        expect(rows[0].oldest ?? Infinity).toBeGreaterThan(last);
      }, 20_000);
      await say(roomId, 'kept');
      const old = await live(baseUrl, `/v2/room/${roomId}/events`, { ...bearer(), 'last-event-id': '1' });
      expect(old.status).toBe(200);
      const ended = await Promise.race([old.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 10_000))]);
      expect({ ended, events: old.events.map((e) => e.event) }).toEqual({ ended: 'ended', events: ['error'] });
      expect(old.events).toEqual([{ event: 'error', data: expect.any(String), at: expect.any(Number), json: {
        error: { code: 'last_event_id_expired', message: expect.stringContaining('Reconnect without Last-Event-ID') },
      } }]);
      // The last event before the wait is still a place to resume from: what followed it is kept.
      const recent = await live(baseUrl, `/v2/room/${roomId}/events`, { ...bearer(), 'last-event-id': String(last + 1) });
      await recent.waitForEvents(1);
      expect(recent.events[0].json.message.message).toBe('kept');
      recent.close();
    }, 40_000);
  });

  describe('a stream ends when its reader may no longer read the room, or the room is gone', () => {
    let carol: { id: number; email: string; token: string };

    beforeAll(async () => {
      const email = `live-carol-${Date.now()}@example.com`;
      const res = await fetch(`${baseUrl}/v1/users/create`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ auth_token: v1Token, name: 'Carol Live', email }),
      });
      expect(res.status).toBe(200);
      const carolToken = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', 'view_messages,view_room'], stack.env).stdout.trim();
      carol = { id: (await v2('GET', `/user/${encodeURIComponent(email)}`)).body.id, email, token: carolToken };
    });

    /** The stream's end within 10 s, and what it carried. */
    async function endOf(client: LiveClient): Promise<{ ended: string; events: Array<string | undefined> }> {
      const ended = await Promise.race([client.ended.then(() => 'ended'), new Promise<string>((r) => setTimeout(() => r('still open'), 10_000))]);
      return { ended, events: client.events.map((e) => e.event) };
    }

    it('a member removed from a private room: the access error, then the end; nothing posted after the removal', async () => {
      const made = await v2('POST', '/room', { name: `Priv Live ${Date.now()}`, privacy: 'private' });
      expect(made.status).toBe(201);
      const roomId = made.body.id;
      expect((await v2('PUT', `/room/${roomId}/member/${carol.id}`)).status).toBe(204);
      const stream = await live(baseUrl, `/v2/room/${roomId}/events`, bearer(carol.token));
      expect(stream.status).toBe(200);
      await say(roomId, 'before the removal');
      await stream.waitForEvents(1);

      expect((await v2('DELETE', `/room/${roomId}/member/${encodeURIComponent(carol.email)}`)).status).toBe(204);
      await say(roomId, 'after the removal');

      expect(await endOf(stream)).toEqual({ ended: 'ended', events: ['room_message', 'error'] });
      expect(stream.events[1].json).toEqual({ error: { code: 'access_revoked', message: expect.stringContaining('reconnecting will be refused') } });
      expect(stream.events.map((e) => e.data).join('\n')).not.toContain('after the removal');
      // Refused as a room the private-room rule keeps them out of: as if it did not exist.
      const again = await live(baseUrl, `/v2/room/${roomId}/events`, bearer(carol.token));
      expect(again.status).toBe(404);
    }, 30_000);

    it('a public room made private: a reader who is not a member gets the access error, then the end', async () => {
      const roomId = await createRoom(`Pub Live ${Date.now()}`);
      const stream = await live(baseUrl, `/v2/room/${roomId}/events`, bearer(carol.token));
      expect(stream.status).toBe(200);
      const watcher = await live(baseUrl, `/v2/room/${roomId}/events`, bearer());
      const room = await v2('GET', `/room/${roomId}`);
      expect((await v2('PUT', `/room/${roomId}`, { name: room.body.name, privacy: 'private' })).status).toBe(204);
      await say(roomId, 'now private');

      expect(await endOf(stream)).toEqual({ ended: 'ended', events: ['error'] });
      expect(stream.events[0].json.error.code).toBe('access_revoked');
      // The owner (a member) keeps the stream, and reads on.
      await watcher.waitForEvents(1);
      expect(watcher.events[0].json.message.message).toBe('now private');
    }, 30_000);

    it('a deleted room: room_deleted, then an error event saying so, then the end', async () => {
      const roomId = await createRoom(`Doomed Live ${Date.now()}`);
      const stream = await live(baseUrl, `/v2/room/${roomId}/events`, bearer());
      expect(stream.status).toBe(200);
      expect((await v2('DELETE', `/room/${roomId}`)).status).toBe(204);

      expect(await endOf(stream)).toEqual({ ended: 'ended', events: ['room_deleted', 'error'] });
      expect(stream.events[1].json).toEqual({ error: { code: 'room_deleted', message: expect.stringContaining('deleted') } });
    }, 30_000);
  });

  describe('two gateway replicas', () => {
    it('a client on either replica sees every event, with the same ids', async () => {
      const roomId = await createRoom('Two Replicas');
      const one = await live(baseUrl, `/v2/room/${roomId}/events`, bearer());
      const two = await live(secondUrl, `/v2/room/${roomId}/events`, bearer());
      expect([one.status, two.status]).toEqual([200, 200]);
      for (let i = 0; i < 5; i++) await v2Call(i % 2 ? secondUrl : baseUrl, token, 'POST', `/room/${roomId}/message`, { message: `m${i}` });
      // The messages, sent once both streams were open, reach both, with the same ids.
      const seen = (c: LiveClient) => c.events
        .filter((e: SseMessage) => e.event === 'room_message')
        .map((e: SseMessage) => [e.id, e.event, e.json?.message?.message]);
      await eventually(() => expect(seen(one)).toHaveLength(5), 10_000);
      await eventually(() => expect(seen(two)).toHaveLength(5), 10_000);
      expect(seen(two)).toEqual(seen(one));
      expect(seen(one).map((e) => e[2])).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    });

    it('the gateway\'s graceful stop ends its live connections', async () => {
      const roomId = await createRoom('Stopping');
      const watching = await live(secondUrl, `/v2/room/${roomId}/events`, bearer());
      expect(watching.status).toBe(200);
      second.child.kill('SIGTERM');
      const stopped = await Promise.race([watching.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 8_000))]);
      expect(stopped).toBe('ended');
      expect(watching.comments).toEqual(expect.arrayContaining([' the gateway is stopping: reconnect with Last-Event-ID to resume']));
      await second.exited;
    });
  });
});

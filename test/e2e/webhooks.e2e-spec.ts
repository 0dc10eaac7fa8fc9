/**
 * Webhooks end to end, as a receiver sees them: the three built services as `npm start` runs
 * them, every event caused through the v2 API, every delivery read off a plain HTTP server.
 *
 * The receivers listen on 127.0.0.2, the only address the system is told to open
 * (WEBHOOK_ALLOWED_NETWORKS=127.0.0.2/32): 127.0.0.1, where the gateway itself listens,
 * stays closed, which is the "loopback without the allow-list" case of the SSRF refusals.
 *
 * - A test add-on declares webhooks for all ten events (JWT) and is installed group-wide;
 *   each event arrives with the envelope and item the specification describes, the values
 *   we caused, a JWT signed with the oauthSecret of its installation and a Standard Webhooks
 *   signature.
 * - REST registrations: a pattern, a reply, a retry, and addresses that must not be reached.
 * - Uninstalling calls the add-on back and stops its deliveries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt, { JwtPayload } from 'jsonwebtoken';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { EVENT_ITEMS, specProblems } from '../support/spec-shapes';
import { Hit, Receiver } from './support-webhooks';

const EVENTS = [
  'room_archived', 'room_created', 'room_deleted', 'room_enter', 'room_exit', 'room_file_upload', 'room_message',
  'room_notification', 'room_topic_change', 'room_unarchived',
] as const;
type EventName = (typeof EVENTS)[number];

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
const MEMBER_SCOPES = 'send_message,view_group,view_messages,view_room';

// No wait after a registration changes: every event carries the registrations' version it was
// committed after, and a dispatcher matches it only once its index has reached that version.
const RETRY_FIRST_WAIT_MS = 300;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The token of `Authorization: JWT <token>` (the header form the specification names). */
function jwtOf(hit: Hit): string {
  const header = String(hit.headers.authorization ?? '');
  const m = /^JWT ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(header);
  if (!m) throw new Error(`expected "Authorization: JWT <token>", got ${JSON.stringify(header)}`);
  return m[1];
}

/**
 * Verifies the Standard Webhooks headers as a receiver does with the standardwebhooks package:
 * its key is `whsec_` + base64 of the secret's UTF-8 bytes. Answers the verified payload.
 */
function verifyStandardWebhook(hit: Hit, secret: string): unknown {
  return new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`).verify(hit.body, {
    'webhook-id': String(hit.headers['webhook-id']),
    'webhook-timestamp': String(hit.headers['webhook-timestamp']),
    'webhook-signature': String(hit.headers['webhook-signature']),
  });
}

describe('webhooks across the built system: a group-wide add-on, REST registrations, replies, retries, refusals', () => {
  let stack: TestSystem;
  let baseUrl: string;
  let files: string;
  let db: Client;
  let receiver: Receiver;
  let adminToken: string;
  let memberToken: string;
  let admin: { id: number; name: string };
  let member: { id: number; name: string };

  /** A v2 call; answers the status and the parsed body (the text when it is not JSON). */
  function v2(token: string, verb: string, path: string, body?: unknown): Promise<Answer> {
    return v2Call(baseUrl, token, verb, path, body);
  }

  async function createRoom(name: string): Promise<number> {
    const made = await v2(adminToken, 'POST', '/room', { name, privacy: 'public' });
    expect(made).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    return made.body.id;
  }

  async function say(token: string, roomId: number, message: string): Promise<void> {
    const sent = await v2(token, 'POST', `/room/${roomId}/message`, { message });
    expect({ status: sent.status, body: sent.body }).toEqual({ status: 201, body: expect.anything() });
  }

  /** POST /v2/room/{room}/webhook as the admin; answers the status and body as they came. */
  const registerWebhook = (roomId: number, spec: Record<string, unknown>) => v2(adminToken, 'POST', `/room/${roomId}/webhook`, spec);

  /** The dispatcher's record of every attempt for one registration, oldest first. */
  async function attemptsOf(webhookId: number) {
    const { rows } = await db.query(
      `SELECT d.status AS delivery, d.attempts, a.attempt, a.status, a.error
         FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.webhook_id = $1 ORDER BY d.created_at, a.attempt`,
      [webhookId],
    );
    return rows as Array<{ delivery: string; attempts: number; attempt: number; status: number | null; error: string | null }>;
  }

  /** Makes a user through v1 (with a v1 admin token) and a personal v2 token for them through the CLI. */
  function makeUser(v1Token: string, name: string, groupAdmin: boolean, scopes: string) {
    return async () => {
      const email = `${name.toLowerCase().replace(/\W+/g, '.')}-${Date.now()}@example.com`;
      const res = await fetch(`${baseUrl}/v1/users/create`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ auth_token: v1Token, name, email, is_group_admin: groupAdmin ? '1' : '0' }),
      });
      expect(res.status).toBe(200);
      const made = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', scopes], stack.env);
      // The CLI notes what it made on stderr; the token alone is on stdout.
      expect({ status: made.status, stdout: made.stdout, stderr: made.stderr }).toEqual({ status: 0, stdout: expect.stringMatching(/^[A-Za-z0-9]{40}\n$/), stderr: expect.any(String) });
      return { email, token: made.stdout.trim() };
    };
  }

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'e2e-hooks-files-'));
    stack = await startTestSystem('e2e_hooks', {
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms,600ms', FILE_STORAGE_DIR: files,
    });
    baseUrl = stack.baseUrl;
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    receiver = await Receiver.start('127.0.0.2');

    // Every CLI call happens here: it blocks this process, where the receivers answer.
    const v1 = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const a = await makeUser(v1, 'Group Admin', true, ADMIN_SCOPES)();
    const m = await makeUser(v1, 'Mia Member', false, MEMBER_SCOPES)();
    adminToken = a.token;
    memberToken = m.token;
    for (const [who, email] of [['admin', a.email], ['member', m.email]] as const) {
      const got = await v2(adminToken, 'GET', `/user/${encodeURIComponent(email)}`);
      expect(got.status).toBe(200);
      if (who === 'admin') admin = { id: got.body.id, name: got.body.name };
      else member = { id: got.body.id, name: got.body.name };
    }
  }, 90_000);

  afterAll(async () => {
    await receiver?.stop();
    await db?.end().catch(() => undefined);
    await stack?.stop();
    if (files) rmSync(files, { recursive: true, force: true });
  }, 30_000);

  describe('a test add-on declaring all ten events with JWT, installed group-wide', () => {
    const CALLBACK_PATH = '/addon/installed';
    const hookPath = (event: string) => `/addon/hook/${event}`;
    let installation: { id: number; oauth_id: string };
    let oauthSecret: string;

    // The room the ten events happen to, and what was said and done in it.
    const ROOM_NAME = 'Webhook Room';
    const TOPIC = 'Deploys at noon';
    const MESSAGE = 'hello, webhooks';
    const NOTIFICATION = 'Build 42 passed';
    const FILE = { name: 'notes.txt', bytes: Buffer.from('hello file') };
    let roomId: number;

    /** The add-on's delivery of `event` about `room` (the first; it waits for it). */
    const deliveryOf = (event: string, room: () => number, where: (h: Hit) => boolean = () => true) =>
      receiver.waitFor(`${event} delivery for room ${room()}`, () =>
        receiver.to(hookPath(event), 'POST').find((h) => h.json?.item?.room?.id === room() && where(h)));

    it('installs from its descriptor with POST /v2/addons (no room): the callback gets oauthId and oauthSecret', async () => {
      const descriptorUrl = receiver.route('/addon/descriptor', {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          key: 'com.example.all-events',
          name: 'All Events',
          description: 'Hears every room event',
          links: { self: `${receiver.base}/addon/descriptor`, homepage: `${receiver.base}/` },
          capabilities: {
            installable: { callbackUrl: `${receiver.base}${CALLBACK_PATH}`, allowRoom: true, allowGlobal: true },
            hipchatApiConsumer: { scopes: ['send_notification', 'view_room'] },
            webhook: EVENTS.map((event) => ({ url: `${receiver.base}${hookPath(event)}`, event, authentication: 'jwt', key: event, name: event })),
          },
        }),
      });
      receiver.route(CALLBACK_PATH, { status: 204 });

      const created = await v2(adminToken, 'POST', '/addons', { url: descriptorUrl });
      expect(created).toMatchObject({ status: 201, body: { id: expect.any(Number), oauth_id: expect.any(String) } });
      installation = created.body;

      const [callback, ...again] = receiver.to(CALLBACK_PATH, 'POST');
      expect(again).toEqual([]);
      expect(callback.headers['content-type']).toMatch(/^application\/json/);
      // Group-wide: no roomId at all (frameworks read an absent roomId as "installed globally").
      expect(callback.json).toEqual({
        oauthId: installation.oauth_id, oauthSecret: expect.any(String), capabilitiesUrl: `${baseUrl}/v2/capabilities`, groupId: expect.any(Number),
      });
      oauthSecret = callback.json.oauthSecret;
      expect(oauthSecret.length).toBeGreaterThanOrEqual(32);
    });

    it('causes the ten events through the v2 API, each call answered as documented', async () => {
      expect(installation).toBeDefined();
      const asMember = { authorization: `Bearer ${memberToken}` };

      roomId = await createRoom(ROOM_NAME);
      expect((await v2(adminToken, 'PUT', `/room/${roomId}/topic`, { topic: TOPIC })).status).toBe(204);
      // The member moves themselves: the acting user of room_enter / room_exit is not the admin.
      expect((await v2(memberToken, 'PUT', `/room/${roomId}/participant/${member.id}`)).status).toBe(204);
      expect((await v2(memberToken, 'DELETE', `/room/${roomId}/participant/${member.id}`)).status).toBe(204);
      await say(memberToken, roomId, MESSAGE);
      expect((await v2(adminToken, 'POST', `/room/${roomId}/notification`, { message: NOTIFICATION, color: 'green', message_format: 'text' })).status).toBe(204);
      const form = new FormData();
      form.append('file', new Blob([FILE.bytes], { type: 'text/plain' }), FILE.name);
      form.append('metadata', JSON.stringify({ message: 'the notes' }));
      expect((await fetch(`${baseUrl}/v2/room/${roomId}/share/file`, { method: 'POST', headers: asMember, body: form })).status).toBe(204);
      // Archive only after the rest: an archived room takes no messages and no one enters it.
      expect((await v2(adminToken, 'PUT', `/room/${roomId}`, { is_archived: true })).status).toBe(204);
      expect((await v2(adminToken, 'PUT', `/room/${roomId}`, { is_archived: false })).status).toBe(204);
      expect((await v2(adminToken, 'DELETE', `/room/${roomId}`)).status).toBe(204);
    });

    /** Who caused each event, and the values of its item that we chose. */
    const CAUSED: Record<EventName, { by: () => { id: number; name: string }; item: () => Record<string, unknown> }> = {
      room_created: { by: () => admin, item: () => ({ room: { id: roomId, name: ROOM_NAME, privacy: 'public', is_archived: false }, sender: { id: admin.id } }) },
      room_topic_change: { by: () => admin, item: () => ({ room: { id: roomId, name: ROOM_NAME }, topic: TOPIC, sender: { id: admin.id } }) },
      room_enter: { by: () => member, item: () => ({ room: { id: roomId }, sender: { id: member.id, name: member.name } }) },
      room_exit: { by: () => member, item: () => ({ room: { id: roomId }, sender: { id: member.id, name: member.name } }) },
      room_message: { by: () => member, item: () => ({ room: { id: roomId }, message: { message: MESSAGE, type: 'message', from: { id: member.id, name: member.name } } }) },
      room_notification: { by: () => admin, item: () => ({ room: { id: roomId }, message: { message: NOTIFICATION, color: 'green', message_format: 'text', type: 'notification' } }) },
      room_file_upload: { by: () => member, item: () => ({ room: { id: roomId }, file: { name: FILE.name, size: FILE.bytes.length }, sender: { id: member.id } }) },
      room_archived: { by: () => admin, item: () => ({ room: { id: roomId, name: ROOM_NAME, is_archived: true }, sender: { id: admin.id } }) },
      room_unarchived: { by: () => admin, item: () => ({ room: { id: roomId, name: ROOM_NAME, is_archived: false }, sender: { id: admin.id } }) },
      room_deleted: { by: () => admin, item: () => ({ room: { id: roomId, name: ROOM_NAME }, sender: { id: admin.id } }) },
    };

    // A file share may also post a message: the room_message meant here is the one we said.
    const isCaused = (event: EventName) => (h: Hit) => event !== 'room_message' || h.json?.item?.message?.message === MESSAGE;

    it.each(EVENTS)('delivers %s: JSON, the exact envelope, the specification\'s item with the values we caused', async (event) => {
      expect(roomId).toBeDefined();
      const hit = await deliveryOf(event, () => roomId, isCaused(event));
      expect(hit.headers['content-type']).toMatch(/^application\/json\b/);
      expect(Object.keys(hit.json).sort()).toEqual(['event', 'item', 'oauth_client_id', 'webhook_id']);
      expect(hit.json).toMatchObject({ event, webhook_id: expect.any(Number), oauth_client_id: installation.oauth_id });
      expect(Number.isInteger(hit.json.webhook_id)).toBe(true);
      expect({ event, problems: specProblems(EVENT_ITEMS[event], hit.json.item) }).toEqual({ event, problems: [] });
      expect(hit.json.item).toMatchObject(CAUSED[event].item());
    });

    it('gives room_file_upload links signed until an instant it states (expires, FILE_LINK_TTL: 7 days, beyond every retry), and when issued', async () => {
      const hit = await deliveryOf('room_file_upload', () => roomId);
      const url = new URL(hit.json.item.file.url);
      expect(url.pathname).toMatch(/^\/files\/[0-9a-f]{2}\/[0-9a-f-]{36}\/notes\.txt$/);
      expect([...url.searchParams.keys()]).toEqual(['expires', 'issued', 'signature']);
      // Issued when shared: a room's change of access after it revokes the link.
      expect(Math.abs(Number(url.searchParams.get('issued')) - hit.at / 1000)).toBeLessThan(600);
      const left = Number(url.searchParams.get('expires')) - hit.at / 1000;
      expect(left).toBeGreaterThan(7 * 86400 - 600);
      expect(left).toBeLessThanOrEqual(7 * 86400 + 60);
    });

    it('uses one registration per declared event: ten distinct webhook ids, one delivery each', async () => {
      const hits = await Promise.all(EVENTS.map((e) => deliveryOf(e, () => roomId, isCaused(e))));
      expect(new Set(hits.map((h) => h.json.webhook_id)).size).toBe(EVENTS.length);
      // No duplicates of what we caused (each answered 204 at once: nothing to retry).
      for (const event of EVENTS) {
        const all = receiver.to(hookPath(event), 'POST').filter((h) => h.json?.item?.room?.id === roomId && isCaused(event)(h));
        expect({ event, deliveries: all.length }).toEqual({ event, deliveries: 1 });
      }
    });

    it.each(EVENTS)('signs %s with a JWT of the installation\'s oauthSecret naming the acting user, and a Standard Webhooks signature', async (event) => {
      expect(oauthSecret).toBeDefined();
      const hit = await deliveryOf(event, () => roomId, isCaused(event));
      const token = jwtOf(hit);
      const claims = jwt.verify(token, oauthSecret, { algorithms: ['HS256'] }) as JwtPayload;
      const actor = String(CAUSED[event].by().id);
      // A notification's item names no user (its `from` is a label): its acting user is the
      // owner of the personal token that sent it, as for every other event.
      expect(claims).toMatchObject({
        iss: installation.oauth_id, sub: actor, prn: actor, iat: expect.any(Number), exp: expect.any(Number),
        jti: expect.any(String), context: { room_id: roomId, user_tz: expect.any(String) },
      });
      expect(claims.exp! - claims.iat!).toBeGreaterThan(0);
      expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300);
      expect(() => jwt.verify(token, `${oauthSecret}x`, { algorithms: ['HS256'] })).toThrow(/signature/);

      expect(hit.headers['webhook-id']).toEqual(expect.any(String));
      expect(Math.abs(Number(hit.headers['webhook-timestamp']) - hit.at / 1000)).toBeLessThan(60);
      expect(hit.headers['webhook-signature']).toMatch(/^v1,/);
      expect(verifyStandardWebhook(hit, oauthSecret)).toEqual(hit.json);
      expect(() => verifyStandardWebhook(hit, `${oauthSecret}x`)).toThrow();
    });

    /** A room with a REST webhook: after the uninstall, its deliveries show the room's events still go out. */
    let patternRoom: number;

    describe('REST registrations with a personal token', () => {
      let patternHook: { id: number; secret: string };

      it('POST /v2/room/{room}/webhook with a pattern answers 201 with a secret; only the matching message arrives, its JWT signed with that secret', async () => {
        patternRoom = await createRoom('Deploy Room');
        const url = receiver.route('/rest/deploys', { status: 204 });
        const created = await registerWebhook(patternRoom, { url, event: 'room_message', pattern: '^/deploy\\b', authentication: 'jwt', name: 'Deploys' });
        expect(created).toMatchObject({ status: 201, body: { id: expect.any(Number), secret: expect.any(String), links: { self: expect.any(String) } } });
        patternHook = created.body;
        // The non-matching message first: once the later, matching one is in, the first had its chance.
        await say(adminToken, patternRoom, 'lunch at noon?');
        await say(adminToken, patternRoom, '/deploy api to production');
        const hit = await receiver.waitFor('the matching message', () => receiver.to('/rest/deploys')[0]);
        await pause(300);
        expect(receiver.to('/rest/deploys').map((h) => h.json?.item?.message?.message)).toEqual(['/deploy api to production']);

        // A registration made over REST names no OAuth client.
        expect(hit.json).toEqual({ event: 'room_message', webhook_id: patternHook.id, item: expect.any(Object) });
        expect(hit.json.item).toMatchObject({ room: { id: patternRoom }, message: { from: { id: admin.id } } });
        const claims = jwt.verify(jwtOf(hit), patternHook.secret, { algorithms: ['HS256'] }) as JwtPayload;
        expect(claims).toMatchObject({ sub: String(admin.id), prn: String(admin.id), context: { room_id: patternRoom } });
        expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300);
        expect(verifyStandardWebhook(hit, patternHook.secret)).toEqual(hit.json);
      });

      it('posts a receiver\'s 200 JSON answer as a notification: in the history, delivered to the add-on, not back to the webhook that replied', async () => {
        const room = await createRoom('Reply Room');
        // Only the ping is answered: a pong delivered back would be seen, not answered again.
        const url = receiver.route('/rest/replier', (hit) => (hit.json?.item?.message?.message === 'ping'
          ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'pong', color: 'green' }) }
          : { status: 204 }));
        const created = await registerWebhook(room, { url, event: 'room_notification', name: 'Replier' });
        expect(created.status).toBe(201);
        expect((await v2(adminToken, 'POST', `/room/${room}/notification`, { message: 'ping', message_format: 'text' })).status).toBe(204);
        const pong = await eventually(async () => {
          const history = await v2(adminToken, 'GET', `/room/${room}/history`);
          expect(history.status).toBe(200);
          const found = history.body.items.find((m: any) => m.message === 'pong');
          expect(found).toBeDefined();
          return found;
        });
        expect(pong).toMatchObject({ type: 'notification', color: 'green' });

        const atAddon = await deliveryOf('room_notification', () => room, (h) => h.json.item.message.message === 'pong');
        expect(specProblems(EVENT_ITEMS.room_notification, atAddon.json.item)).toEqual([]);
        expect(atAddon.json.item.message).toMatchObject({ message: 'pong', color: 'green' });
        // The add-on has the pong: the dispatcher has planned its deliveries; give a stray one time to land.
        await pause(500);
        expect(receiver.to('/rest/replier').map((h) => h.json?.item?.message?.message)).toEqual(['ping']);
      });

      it('retries a 500 after about 300 ms with the same webhook-id and body, then stops at the 200', async () => {
        const room = await createRoom('Retry Room');
        const url = receiver.route('/rest/flaky', (_hit, n) => (n === 1 ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'try later' } : { status: 200 }));
        const created = await registerWebhook(room, { url, event: 'room_message' });
        expect(created.status).toBe(201);
        await say(adminToken, room, 'flaky receiver, please');
        const [first, second] = await receiver.waitFor('two attempts', () => {
          const got = receiver.to('/rest/flaky');
          return got.length >= 2 && got;
        }, 5_000);
        expect(second.headers['webhook-id']).toEqual(expect.any(String));
        expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
        expect(second.body).toBe(first.body);
        // The schedule's 300 ms less its 10 % jitter, waited in the broker; well under the next wait.
        const gap = second.at - first.at;
        expect(gap).toBeGreaterThanOrEqual(RETRY_FIRST_WAIT_MS * 0.9 - 5);
        expect(gap).toBeLessThan(2_000);
        expect(verifyStandardWebhook(second, created.body.secret)).toEqual(second.json);

        await pause(900);
        expect(receiver.to('/rest/flaky')).toHaveLength(2);
        expect(await attemptsOf(created.body.id)).toEqual([
          expect.objectContaining({ attempt: 1, status: 500, error: null }),
          expect.objectContaining({ delivery: 'delivered', attempts: 2, attempt: 2, status: 200, error: null }),
        ]);
      });

      describe('addresses it must not reach', () => {
        let room: number;
        let loopback: Receiver;
        const answers: Record<string, { status: number; body: any }> = {};
        const METADATA_URLS = {
          dotted: 'http://169.254.169.254/latest/meta-data/',
          hex: 'http://0xa9fea9fe/latest/meta-data/',
          mapped: 'http://[::ffff:169.254.169.254]/latest/meta-data/',
        };

        beforeAll(async () => {
          // A live service on 127.0.0.1, which the allow-list does not open.
          loopback = await Receiver.start('127.0.0.1');
          room = await createRoom('Guard Room');
          const register = async (label: string, url: string) => {
            answers[label] = await registerWebhook(room, { url, event: 'room_message', name: label });
          };
          await register('loopback', loopback.route('/internal', { status: 204 }));
          // The same service by a host name: nothing to judge at registration, refused at delivery.
          await register('localhost', loopback.route('/internal', { status: 204 }).replace('//127.0.0.1:', '//localhost:'));
          for (const [label, url] of Object.entries(METADATA_URLS)) await register(label, url);
          const target = receiver.route('/guard/redirect-target', { status: 204 });
          await register('redirect', receiver.route('/guard/redirect', { status: 302, headers: { location: target } }));
          // A receiver that may be reached: proof that the message was dispatched at all.
          await register('allowed', receiver.route('/guard/allowed', { status: 204 }));
          await say(adminToken, room, 'who can hear this?');
          await receiver.waitFor('the allowed delivery', () => receiver.to('/guard/allowed')[0]);
        });

        afterAll(async () => {
          await loopback?.stop();
        });

        it('refuses a registration at 127.0.0.1 (not opened) with a 400 naming url', async () => {
          expect(answers.loopback.status).toBe(400);
          expect(answers.loopback.body.error).toMatchObject({
            code: 400, type: 'Bad Request', message: expect.stringMatching(/^url: cannot be delivered to: 127\.0\.0\.1 is a loopback address; refused/),
          });
        });

        it('accepts a host name resolving to 127.0.0.1 but never connects: the attempt is refused as loopback, not retried', async () => {
          expect(answers.localhost).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
          const attempts = await eventually(async () => {
            const rows = await attemptsOf(answers.localhost.body.id);
            expect(rows).toHaveLength(1);
            return rows;
          });
          // Refused on the address the name resolved to, before any connection, and for good.
          expect(attempts).toEqual([expect.objectContaining({
            delivery: 'failed', attempts: 1, attempt: 1, status: null, error: expect.stringMatching(/^refused: localhost: (127\.0\.0\.1|::1) is a loopback address; refused/),
          })]);
          await pause(RETRY_FIRST_WAIT_MS * 1.2);
          expect(loopback.hits).toEqual([]);
          expect(await attemptsOf(answers.localhost.body.id)).toHaveLength(1);
        });

        it.each(Object.keys(METADATA_URLS))('refuses the cloud metadata address written %s at registration, with a 400 naming url', async (label) => {
          expect(answers[label].status).toBe(400);
          // The mapped form is named as written once parsed (::ffff:a9fe:a9fe): the address it stands for is the same.
          expect(answers[label].body.error.message).toMatch(/^url: cannot be delivered to: (169\.254\.169\.254|::ffff:a9fe:a9fe) is a cloud metadata address; refused$/);
        });

        it('does not follow a 302 to another receiver, even one it may reach', async () => {
          expect(answers.redirect).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
          // A 3xx is an answer like any non-2xx: retried on the schedule, then given up.
          const attempts = await eventually(async () => {
            const rows = await attemptsOf(answers.redirect.body.id);
            expect(rows.at(-1)?.delivery).toBe('failed');
            return rows;
          }, 5_000);
          expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 302], [2, 302], [3, 302]]);
          expect(receiver.to('/guard/redirect')).toHaveLength(3);
          expect(receiver.to('/guard/redirect-target')).toEqual([]);
        });

        it('stays healthy: /health answers 200, all three services run, and the next message is still delivered', async () => {
          expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
          expect(stack.launched.child.exitCode).toBeNull();
          await say(adminToken, room, 'still there?');
          await receiver.waitFor('the next allowed delivery', () => receiver.to('/guard/allowed').find((h) => h.json?.item?.message?.message === 'still there?'));
          expect(loopback.hits).toEqual([]);
        });
      });
    });

    it('uninstalls the add-on: 204, DELETE {callbackUrl}/{oauthId} to it, and no delivery to it afterwards', async () => {
      expect(installation).toBeDefined();
      expect(patternRoom).toBeDefined();
      const removed = await v2(adminToken, 'DELETE', `/addons/${installation.id}`);
      expect(removed.status).toBe(204);
      await receiver.waitFor('the uninstall call', () => receiver.to(`${CALLBACK_PATH}/${installation.oauth_id}`, 'DELETE')[0]);
      expect((await v2(adminToken, 'GET', `/addons/${installation.id}`)).status).toBe(404);
      // The REST webhook of the same room hears it: the event was dispatched, the add-on left out.
      await say(adminToken, patternRoom, '/deploy after the uninstall');
      await receiver.waitFor('the REST delivery', () => receiver.to('/rest/deploys').find((h) => h.json.item.message.message === '/deploy after the uninstall'));
      await pause(300);
      const toAddon = receiver.hits.filter((h) => h.path.startsWith('/addon/hook/') && h.json?.item?.room?.id === patternRoom);
      expect(toAddon.map((h) => h.json.item.message?.message ?? h.json.event)).not.toContain('/deploy after the uninstall');
      // It did hear that room while installed (its creation, its messages): the filter above can see a delivery.
      expect(toAddon.length).toBeGreaterThan(0);
    });
  });
});

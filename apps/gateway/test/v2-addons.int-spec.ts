import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListRegistrationsV1, WebhookRegistration } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomsClient } from '../src/shared/rooms-client';
import { openWebhookUrl, secretPurpose } from '@app/common';
import { EventCapture, eventually, openedSecret, Stack, startStack, TEST_SECRET_BOX, V1Response } from '../../../test/support/harness';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
const CAPABILITIES_URL = `${BASE}/v2/capabilities`;
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const SECRET = expect.stringMatching(/^[A-Za-z0-9_-]{43}$/);
const TOKEN = expect.stringMatching(/^[A-Za-z0-9]{40}$/);

const errorOf = (res: V1Response) => ({ status: res.status, message: res.json?.error?.message });

/** How the test add-on asks for a token while it handles its installation callback. */
type TokenRequest = { as: 'form'; scope: string } | { as: 'json'; scope: string } | null;

interface Received { method: string; path: string; headers: IncomingMessage['headers']; text: string; json: any }

interface CallbackPlan { status: number; token: TokenRequest }

/**
 * A local add-on: serves descriptors at /d/<name>, takes installation callbacks at
 * /cb/<name> (asking our token URL for a token inside the handler, as frameworks do) and
 * uninstall calls at /cb/<name>/<oauthId>; records every request.
 */
class TestAddon {
  readonly received: Received[] = [];
  /** Token answers got inside installation callbacks, by callback name. */
  readonly tokenAnswers = new Map<string, { status: number; json: any }>();
  private readonly descriptors = new Map<string, { status: number; text: string }>();
  private readonly callbacks = new Map<string, CallbackPlan>();
  base = '';

  private constructor(private readonly server: Server, private readonly tokenUrl: () => string) {}

  static async start(tokenUrl: () => string, host = '127.0.0.1'): Promise<TestAddon> {
    const server = createServer();
    const addon = new TestAddon(server, tokenUrl);
    server.on('request', (req, res) => void addon.handle(req, res.writeHead.bind(res), (body?: string) => res.end(body)));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    addon.base = `http://${host}:${(server.address() as AddressInfo).port}`;
    return addon;
  }

  /** A descriptor as add-ons write them, with `overrides` of its capabilities. */
  descriptor(name: string, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      key: `com.example.${name}`,
      name: `Test ${name}`,
      description: 'An add-on of the integration tests',
      links: { self: `${this.base}/d/${name}`, homepage: `${this.base}/` },
      capabilities: {
        installable: { callbackUrl: `${this.base}/cb/${name}`, allowRoom: true, allowGlobal: true },
        hipchatApiConsumer: { scopes: ['send_notification', 'view_room', 'admin_room'] },
        webhook: [
          { url: `${this.base}/hook/${name}?tenant=abc`, event: 'room_message', pattern: '^/echo\\b', authentication: 'jwt', key: 'echo', name: 'Echo' },
          { url: `${this.base}/hook/${name}`, event: 'room_enter' },
        ],
        ...capabilities,
      },
    };
  }

  serve(name: string, descriptor: unknown, status = 200): string {
    this.descriptors.set(name, { status, text: typeof descriptor === 'string' ? descriptor : JSON.stringify(descriptor) });
    return `${this.base}/d/${name}`;
  }

  onInstall(name: string, plan: CallbackPlan): void {
    this.callbacks.set(name, plan);
  }

  of(method: string, path: string): Received[] {
    return this.received.filter((r) => r.method === method && r.path === path);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, head: (status: number, headers?: Record<string, string>) => void, end: (body?: string) => void) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const path = new URL(req.url!, this.base).pathname;
    this.received.push({ method: req.method!, path, headers: req.headers, text, json });

    const [, kind, name, extra] = path.split('/');
    if (req.method === 'GET' && kind === 'd' && this.descriptors.has(name)) {
      const d = this.descriptors.get(name)!;
      head(d.status, { 'content-type': 'application/json' });
      return end(d.text);
    }
    if (req.method === 'POST' && kind === 'cb' && !extra) {
      const plan = this.callbacks.get(name) ?? { status: 200, token: null };
      if (plan.token && json?.oauthId) this.tokenAnswers.set(name, await this.requestToken(json.oauthId, json.oauthSecret, plan.token));
      head(plan.status, { 'content-type': 'application/json' });
      return end('{}');
    }
    if (req.method === 'DELETE' && kind === 'cb' && extra) {
      head(204);
      return end();
    }
    head(404);
    end();
  }

  /** The client credentials grant as frameworks send it: form-encoded with spaces, or JSON. */
  private async requestToken(id: string, secret: string, how: NonNullable<TokenRequest>) {
    const authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const res = await fetch(this.tokenUrl(), how.as === 'form'
      ? { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&scope=${how.scope.replace(/ /g, '+')}` }
      : { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', scope: how.scope }) });
    return { status: res.status, json: await res.json() };
  }
}

describe('v2 add-ons: installation, OAuth, uninstall (real services, a local add-on)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let db: DataSource;
  let s: V2Session;
  let addon: TestAddon;
  let roomA: number;
  let roomB: number;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });
  const tokenRequest = (body: string | Record<string, unknown>, headers: Record<string, string> = {}) => fetch(`${stack.baseUrl}/v2/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, headers: res.headers, json: await res.json() as any }));
  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
  const registrations = async (): Promise<WebhookRegistration[]> =>
    (await stack.gateway!.get(RoomsClient, { strict: false }).send(ListRegistrationsV1, {})).registrations;
  const notify = (token: string, room: number, message = 'hello from the add-on') =>
    v2(stack.baseUrl, 'POST', `room/${room}/notification`, { token, body: { message } });
  const createRoom = async (name: string) => {
    const res = await call('POST', 'room', { body: { name } });
    expect(res.status).toBe(201);
    return res.json.id as number;
  };

  beforeAll(async () => {
    stack = await startStack({
      gateway: { PUBLIC_BASE_URL: BASE, V2_RATE_LIMIT_MAX: '100000' },
      rooms: { PUBLIC_BASE_URL: BASE, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
    });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
    addon = await TestAddon.start(() => `${stack.baseUrl}/v2/oauth/token`);
    roomA = await createRoom('Add-on Room A');
    roomB = await createRoom('Add-on Room B');
  });

  afterAll(async () => {
    await addon?.stop();
    await capture?.stop();
    await stack?.stop();
  });

  describe('installed in a room', () => {
    let installation: { id: number; oauth_id: string };
    let callback: any;
    let token: string;
    /** Registered through the REST API with one of its tokens: it goes with the add-on too. */
    let dynamicWebhook: number;

    it('answers 201; the callback gets the installation, and a token while handling it (form-encoded, scopes with spaces)', async () => {
      addon.onInstall('roomy', { status: 200, token: { as: 'form', scope: 'send_notification view_room' } });
      const url = addon.serve('roomy', addon.descriptor('roomy'));
      const res = await call('POST', 'addons', { body: { url, room: String(roomA) } });
      expect([res.status, res.json]).toEqual([201, { id: expect.any(Number), oauth_id: UUID, links: { self: `${BASE}/v2/addons/${res.json.id}` } }]);
      installation = res.json;

      const [post] = addon.of('POST', '/cb/roomy');
      expect(post.headers['content-type']).toMatch(/^application\/json/);
      callback = post.json;
      expect(callback).toEqual({ oauthId: installation.oauth_id, oauthSecret: SECRET, capabilitiesUrl: CAPABILITIES_URL, roomId: roomA, groupId: 1 });
      expect([typeof callback.oauthId, typeof callback.roomId, typeof callback.groupId]).toEqual(['string', 'number', 'number']);
      // The document it points at names itself with that very string, and names the token URL.
      const caps = await v2(stack.baseUrl, 'GET', 'capabilities');
      expect(caps.json.links.self).toBe(callback.capabilitiesUrl);
      expect(caps.json.capabilities.oauth2Provider.tokenUrl).toBe(`${BASE}/v2/oauth/token`);

      // The OAuth client was committed before the callback: the token request inside it succeeded.
      const answer = addon.tokenAnswers.get('roomy')!;
      expect(answer).toEqual({
        status: 200,
        json: { access_token: TOKEN, expires_in: 3600, scope: 'send_notification view_room', token_type: 'bearer', group_id: 1, group_name: 'Chat Room Service' },
      });
      token = answer.json.access_token;
      const [row] = await db.query(`SELECT kind, label, room_id, scopes, expires_at - now() > interval '59 minutes' AS fresh FROM api_tokens WHERE label = 'Test roomy'`);
      expect(row).toEqual({ kind: 'addon', label: 'Test roomy', room_id: roomA, scopes: ['send_notification', 'view_room'], fresh: true });
    });

    it('registers the descriptor\'s webhooks for the room, signed with the oauthSecret, and tells the dispatchers', async () => {
      expect(installation).toBeDefined();
      // The URLs kept sealed too, each for its row.
      const rows = (await db.query(
        `SELECT id, room_id, event, url, pattern, name, authentication, key, secret, installation_id, oauth_client_id FROM webhooks
          WHERE installation_id = $1 ORDER BY id`, [installation.id])).map(({ id, ...r }: any) => {
        expect(r.url).toMatch(/^enc:v1:test:/);
        return { ...r, url: TEST_SECRET_BOX.open(r.url, secretPurpose.webhookUrl(id)) };
      });
      // The secret kept sealed (the client's, whose copy each of its webhooks carries), never in clear.
      for (const r of rows) expect(TEST_SECRET_BOX.open(r.secret, secretPurpose.oauthClient(installation.oauth_id))).toBe(callback.oauthSecret);
      const common = { room_id: roomA, secret: expect.stringMatching(/^enc:v1:test:/), installation_id: installation.id, oauth_client_id: installation.oauth_id };
      expect(rows).toEqual([
        { ...common, event: 'room_message', url: `${addon.base}/hook/roomy?tenant=abc`, pattern: '^/echo\\b', name: 'Echo', authentication: 'jwt', key: 'echo' },
        { ...common, event: 'room_enter', url: `${addon.base}/hook/roomy`, pattern: null, name: '', authentication: 'none', key: null },
      ]);
      const ids = (await db.query('SELECT id FROM webhooks WHERE installation_id = $1 ORDER BY id', [installation.id])).map((r: any) => r.id);
      const registered = (await registrations()).filter((r) => r.installationId === installation.id);
      expect(registered.map((r) => [r.id, r.roomId, r.event, openedSecret(r), r.oauthClientId, r.addonName])).toEqual([
        [ids[0], roomA, 'room_message', callback.oauthSecret, installation.oauth_id, 'Test roomy'],
        [ids[1], roomA, 'room_enter', callback.oauthSecret, installation.oauth_id, 'Test roomy'],
      ]);
      const notice = await capture.waitFor('webhook.registrations-changed.v1', (e) => e.payload.webhookIds.includes(ids[0]));
      expect(notice.payload).toEqual({ roomId: roomA, webhookIds: ids });
      // Declared by the add-on: not deletable through the webhook API.
      expect((await call('DELETE', `room/${roomA}/webhook/${ids[0]}`)).status).toBe(403);
    });

    it('shows the installation', async () => {
      expect(installation).toBeDefined();
      const res = await call('GET', `addons/${installation.id}`);
      const ids = (await db.query('SELECT id FROM webhooks WHERE installation_id = $1 ORDER BY id', [installation.id])).map((r: any) => r.id);
      expect([res.status, res.json]).toEqual([200, {
        id: installation.id, key: 'com.example.roomy', name: 'Test roomy', oauth_id: installation.oauth_id, room_id: roomA,
        descriptor_url: `${addon.base}/d/roomy`, callback_url: `${addon.base}/cb/roomy`, scopes: ['send_notification', 'view_room', 'admin_room'],
        webhooks: ids.map((id: number) => ({ id, links: { self: `${BASE}/v2/room/${roomA}/webhook/${id}` } })),
        installed_by: s.adminId, created: ISO, links: { self: `${BASE}/v2/addons/${installation.id}` },
      }]);
    });

    it('its token acts on its room only, as the add-on', async () => {
      expect(token).toBeDefined();
      expect((await notify(token, roomA, 'roomy says hi')).status).toBe(204);
      const sent = await capture.waitFor('room.notification-sent.v2', (e) => e.payload.message.message === 'roomy says hi');
      expect(sent.payload.message.from).toBe('Test roomy');
      expect((await v2(stack.baseUrl, 'GET', `room/${roomA}`, { token })).status).toBe(200);
      // The room list shows it its own room only.
      const listed = await v2(stack.baseUrl, 'GET', 'room', { token });
      expect([listed.status, listed.json.items.map((r: any) => r.id)]).toEqual([200, [roomA]]);
      expect(errorOf(await notify(token, roomB))).toEqual({ status: 403, message: expect.stringMatching(/own room/) });
      // Scopes it was not given.
      expect((await v2(stack.baseUrl, 'POST', `room/${roomA}/webhook`, { token, body: { url: `${addon.base}/x`, event: 'room_exit' } })).status).toBe(403);
    });

    it('a token with admin_room registers webhooks in the add-on\'s room, not in another', async () => {
      expect(callback).toBeDefined();
      const got = await tokenRequest({ grant_type: 'client_credentials', scope: 'admin_room' }, basic(callback.oauthId, callback.oauthSecret));
      expect([got.status, got.json.scope]).toEqual([200, 'admin_room']);
      const admin = got.json.access_token;
      const made = await v2(stack.baseUrl, 'POST', `room/${roomA}/webhook`, { token: admin, body: { url: `${addon.base}/dyn`, event: 'room_exit' } });
      // It signs with the add-on's oauthSecret: no secret of its own to answer.
      expect([made.status, made.json]).toEqual([201, { id: expect.any(Number), links: { self: expect.any(String) } }]);
      dynamicWebhook = made.json.id;
      // Registered with the add-on's token: its deliveries and replies are the add-on's.
      const dynamic = (await registrations()).find((r) => r.id === dynamicWebhook)!;
      expect(dynamic).toMatchObject({ addonName: 'Test roomy', oauthClientId: callback.oauthId, installationId: null });
      expect(openedSecret(dynamic)).toBe(callback.oauthSecret);
      expect((await v2(stack.baseUrl, 'POST', `room/${roomB}/webhook`, { token: admin, body: { url: `${addon.base}/dyn`, event: 'room_exit' } })).status).toBe(403);
    });

    it('answers a token whose scope lists only what it can use: no admin_group for a room install that asked for it', async () => {
      addon.onInstall('bossy', { status: 200, token: null });
      const url = addon.serve('bossy', addon.descriptor('bossy', { hipchatApiConsumer: { scopes: ['send_notification', 'view_room', 'admin_group'] }, webhook: [] }));
      const res = await call('POST', 'addons', { body: { url, room: String(roomB) } });
      expect(res.status).toBe(201);
      const [{ json: cb }] = addon.of('POST', '/cb/bossy');
      try {
        const all = await tokenRequest('grant_type=client_credentials', basic(cb.oauthId, cb.oauthSecret));
        expect([all.status, all.json.scope]).toEqual([200, 'send_notification view_room']);
        const asked = await tokenRequest({ grant_type: 'client_credentials', scope: 'view_room admin_group' }, basic(cb.oauthId, cb.oauthSecret));
        expect([asked.status, asked.json.scope]).toEqual([200, 'view_room']);
        // What the answer leaves out is indeed refused.
        const denied = await v2(stack.baseUrl, 'GET', 'addons', { token: all.json.access_token });
        expect(errorOf(denied)).toEqual({ status: 403, message: expect.stringMatching(/admin_group does not apply to a token confined to one room/) });
      } finally {
        expect((await call('DELETE', `addons/${res.json.id}`)).status).toBe(204);
      }
    });

    it('uninstalls: 204, its webhooks gone, its tokens refused, DELETE {callbackUrl}/{oauthId} received', async () => {
      expect(token).toBeDefined();
      const ids = (await db.query('SELECT id FROM webhooks WHERE installation_id = $1 ORDER BY id', [installation.id])).map((r: any) => r.id);
      const tokenIds = (await db.query(`SELECT id FROM api_tokens WHERE label = 'Test roomy' AND revoked_at IS NULL ORDER BY id`)).map((r: any) => r.id);
      expect(tokenIds).toHaveLength(2);

      const res = await call('DELETE', `addons/${installation.id}`);
      expect([res.status, res.text]).toEqual([204, '']);
      expect(addon.of('DELETE', `/cb/roomy/${installation.oauth_id}`)).toHaveLength(1);

      expect(await db.query('SELECT id FROM webhooks WHERE id = ANY($1)', [[...ids, dynamicWebhook]])).toEqual([]);
      expect(await db.query('SELECT id FROM oauth_clients WHERE id = $1', [installation.oauth_id])).toEqual([]);
      expect((await registrations()).filter((r) => ids.includes(r.id))).toEqual([]);
      // The second notice naming them: their removal.
      const notices = await eventually(() => {
        const found = capture.of('webhook.registrations-changed.v1', (e) => e.payload.webhookIds.includes(ids[0]));
        expect(found).toHaveLength(2);
        return found;
      });
      expect(notices[1].payload).toEqual({ roomId: roomA, webhookIds: [...ids, dynamicWebhook] });
      for (const tokenId of tokenIds) await capture.waitFor('token.revoked.v1', (e) => e.payload.tokenId === tokenId);

      await eventually(async () => expect((await notify(token, roomA)).status).toBe(401), 3000);
      expect((await call('GET', `addons/${installation.id}`)).status).toBe(404);
      expect(errorOf(await call('DELETE', `addons/${installation.id}`))).toEqual({ status: 404, message: `Add-on installation ${installation.id} not found` });
      const again = await tokenRequest('grant_type=client_credentials', basic(callback.oauthId, callback.oauthSecret));
      expect(again.status).toBe(401);
    });
  });

  describe('installed in a room that is then deleted', () => {
    it('goes with the room: tokens revoked, webhooks and client removed, DELETE {callbackUrl}/{oauthId} received', async () => {
      const roomC = await createRoom('Add-on Room C');
      addon.onInstall('doomed', { status: 200, token: { as: 'json', scope: 'send_notification' } });
      const made = await call('POST', 'addons', { body: { url: addon.serve('doomed', addon.descriptor('doomed')), room: String(roomC) } });
      expect(made.status).toBe(201);
      const token = addon.tokenAnswers.get('doomed')!.json.access_token;
      expect((await notify(token, roomC, 'doomed says hi')).status).toBe(204);
      const ids = (await db.query('SELECT id FROM webhooks WHERE installation_id = $1 ORDER BY id', [made.json.id])).map((r: any) => r.id);
      const [tokenRow] = await db.query(`SELECT id FROM api_tokens WHERE label = 'Test doomed'`);
      expect(ids).toHaveLength(2);

      expect((await call('DELETE', `room/${roomC}`)).status).toBe(204);
      await eventually(() => expect(addon.of('DELETE', `/cb/doomed/${made.json.oauth_id}`)).toHaveLength(1), 5000);
      await capture.waitFor('token.revoked.v1', (e) => e.payload.tokenId === tokenRow.id);
      // The second notice naming them (after the install's): their removal.
      const notices = await eventually(() => {
        const found = capture.of('webhook.registrations-changed.v1', (e) => e.payload.webhookIds.includes(ids[0]));
        expect(found).toHaveLength(2);
        return found;
      });
      expect(notices[1].payload).toEqual({ roomId: roomC, webhookIds: ids });
      expect(await db.query('SELECT id FROM oauth_clients WHERE id = $1', [made.json.oauth_id])).toEqual([]);
      expect((await registrations()).filter((r) => ids.includes(r.id))).toEqual([]);
      expect((await call('GET', `addons/${made.json.id}`)).status).toBe(404);
      // A gateway that had the token cached drops it: the revocation reached it.
      await eventually(async () => expect((await notify(token, roomA)).status).toBe(401), 3000);
    });
  });

  describe('installed group-wide', () => {
    let installation: { id: number; oauth_id: string };
    let callback: any;

    it('answers 201; the callback has no roomId; a JSON token request with one scope works during it', async () => {
      addon.onInstall('global', { status: 204, token: { as: 'json', scope: 'send_notification' } });
      const url = addon.serve('global', addon.descriptor('global'));
      const res = await call('POST', 'addons', { body: { url } });
      expect(res.status).toBe(201);
      installation = res.json;
      callback = addon.of('POST', '/cb/global')[0].json;
      expect(callback).toEqual({ oauthId: installation.oauth_id, oauthSecret: SECRET, capabilitiesUrl: CAPABILITIES_URL, groupId: 1 });
      expect('roomId' in callback).toBe(false);
      expect(addon.tokenAnswers.get('global')).toEqual({
        status: 200,
        json: { access_token: TOKEN, expires_in: 3600, scope: 'send_notification', token_type: 'bearer', group_id: 1, group_name: 'Chat Room Service' },
      });
    });

    it('registers group-wide webhooks (room null) and its token acts on every room', async () => {
      expect(installation).toBeDefined();
      const rows = await db.query('SELECT id, room_id FROM webhooks WHERE installation_id = $1 ORDER BY id', [installation.id]);
      expect(rows.map((r: any) => r.room_id)).toEqual([null, null]);
      const notice = await capture.waitFor('webhook.registrations-changed.v1', (e) => e.payload.webhookIds.includes(rows[0].id));
      expect(notice.payload).toEqual({ roomId: null, webhookIds: rows.map((r: any) => r.id) });
      expect((await registrations()).filter((r) => r.installationId === installation.id).map((r) => r.roomId)).toEqual([null, null]);

      const token = addon.tokenAnswers.get('global')!.json.access_token;
      expect((await notify(token, roomA)).status).toBe(204);
      expect((await notify(token, roomB)).status).toBe(204);
      expect((await v2(stack.baseUrl, 'GET', `room/${roomA}`, { token })).status).toBe(403);
    });

    it('is installed once group-wide', async () => {
      expect(installation).toBeDefined();
      const res = await call('POST', 'addons', { body: { url: `${addon.base}/d/global` } });
      expect(errorOf(res)).toEqual({ status: 400, message: 'The add-on cannot be installed: the add-on com.example.global is already installed group-wide.' });
    });

    describe('OAuth token requests', () => {
      const grant = 'grant_type=client_credentials';

      it('answers 200 form-encoded or JSON, with Basic or client_id/client_secret, every allowed scope by default', async () => {
        const form = await tokenRequest(`${grant}&scope=view_room+send_notification`, basic(callback.oauthId, callback.oauthSecret));
        expect([form.status, form.json.scope, form.headers.get('cache-control')]).toEqual([200, 'view_room send_notification', 'no-store']);
        const all = await tokenRequest({ grant_type: 'client_credentials' }, basic(callback.oauthId, callback.oauthSecret));
        expect([all.status, all.json.scope]).toEqual([200, 'send_notification view_room admin_room']);
        const inBody = await tokenRequest(`${grant}&client_id=${callback.oauthId}&client_secret=${callback.oauthSecret}`);
        expect(inBody.status).toBe(200);
      });

      it('refuses wrong or missing credentials with 401', async () => {
        const wrong = await tokenRequest(grant, basic(callback.oauthId, `${callback.oauthSecret}x`));
        expect([wrong.status, wrong.json.error.message, wrong.headers.get('www-authenticate')])
          .toEqual([401, expect.stringMatching(/^invalid_client: /), 'Basic realm="oauth"']);
        expect((await tokenRequest(grant, basic('00000000-0000-4000-8000-000000000000', callback.oauthSecret))).status).toBe(401);
        expect((await tokenRequest(grant)).status).toBe(401);
        expect((await tokenRequest(grant, { authorization: 'Basic !!!' })).status).toBe(401);
        expect((await tokenRequest(grant, basic('x'.repeat(300), 'y'))).status).toBe(401);
      });

      it('refuses another grant type, and scopes the descriptor did not ask for, with 400 naming them', async () => {
        const password = await tokenRequest('grant_type=password&scope=view_room', basic(callback.oauthId, callback.oauthSecret));
        expect([password.status, password.json.error.message]).toEqual([400, expect.stringMatching(/^unsupported_grant_type: grant_type must be client_credentials \(got "password"\)/)]);
        expect((await tokenRequest({ scope: 'view_room' }, basic(callback.oauthId, callback.oauthSecret))).status).toBe(400);
        const outside = await tokenRequest(`${grant}&scope=send_notification+admin_group`, basic(callback.oauthId, callback.oauthSecret));
        expect([outside.status, outside.json.error.message]).toEqual([400,
          'invalid_scope: the scope admin_group was not requested by the add-on\'s descriptor (capabilities.hipchatApiConsumer.scopes: send_notification, view_room, admin_room)']);
        const unknown = await tokenRequest({ grant_type: 'client_credentials', scope: 'fly' }, basic(callback.oauthId, callback.oauthSecret));
        expect([unknown.status, unknown.json.error.message]).toEqual([400, expect.stringMatching(/^invalid_scope: unknown scope "fly"/)]);
      });
    });
  });

  describe("webhooks an add-on's token registered", () => {
    it("are that installation's, the room owner's and group admins': another add-on or a member neither sees nor changes them", async () => {
      const ownerId = await s.createUser('Hook Room Owner');
      const memberId = await s.createUser('Hook Room Member');
      const made = await call('POST', 'room', { body: { name: 'Add-on Hooks Room', owner_user_id: ownerId } });
      expect(made.status).toBe(201);
      const room = made.json.id as number;
      const tokens: Record<string, string> = {};
      const installations: number[] = [];
      for (const name of ['alpha', 'beta']) {
        addon.onInstall(name, { status: 200, token: null });
        const installed = await call('POST', 'addons', { body: { url: addon.serve(name, addon.descriptor(name, { webhook: [] })), room: String(room) } });
        expect(installed.status).toBe(201);
        installations.push(installed.json.id);
        const [cb] = addon.of('POST', `/cb/${name}`);
        const got = await tokenRequest({ grant_type: 'client_credentials', scope: 'admin_room view_room' }, basic(cb.json.oauthId, cb.json.oauthSecret));
        expect(got.status).toBe(200);
        tokens[name] = got.json.access_token;
      }
      const as = (token: string) => (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token, ...opts });
      const [alpha, beta] = [as(tokens.alpha), as(tokens.beta)];
      const member = as(await s.personalToken(memberId));
      const owner = as(await s.personalToken(ownerId));

      const url = `${addon.base}/relay?secret=s3cr3t`;
      const put = await alpha('PUT', `room/${room}/extension/webhook/relay`, { body: { url, event: 'room_message' } });
      expect(put.status).toBe(201);
      const id = put.json.id as number;
      const notFound = { status: 404, message: `Webhook ${id} not found` };

      // Another add-on: not there, by id or by key, in the list, and for every change.
      for (const [verb, path, body] of [
        ['GET', `room/${room}/webhook/${id}`, undefined],
        ['DELETE', `room/${room}/webhook/${id}`, undefined],
        ['POST', `room/${room}/webhook/${id}/enable`, undefined],
        ['GET', `room/${room}/webhook/${id}/delivery`, undefined],
        ['POST', `room/${room}/webhook/${id}/recover`, { since: '2026-01-01T00:00:00Z' }],
      ] as Array<[string, string, unknown]>) {
        expect([verb, path, errorOf(await beta(verb, path, { body }))]).toEqual([verb, path, notFound]);
      }
      expect(errorOf(await beta('GET', `room/${room}/extension/webhook/relay`))).toEqual({ status: 404, message: 'Webhook relay not found' });
      expect(errorOf(await beta('DELETE', `room/${room}/extension/webhook/relay`))).toEqual({ status: 404, message: 'Webhook relay not found' });
      // Its PUT of the same key makes a webhook of its own, and leaves the first one's where it pointed.
      const theirs = await beta('PUT', `room/${room}/extension/webhook/relay`, { body: { url: `${addon.base}/stolen`, event: 'room_message' } });
      expect(theirs.status).toBe(201);
      expect(theirs.json.id).not.toBe(id);
      expect(openWebhookUrl(TEST_SECRET_BOX, (await db.query('SELECT url FROM webhooks WHERE id = $1', [id]))[0].url, id)).toBe(url);
      const listed = async (who: typeof alpha) => (await who('GET', `room/${room}/webhook`)).json.items.map((w: { id: number }) => w.id);
      expect(await listed(beta)).toEqual([theirs.json.id]);

      // A member of the room: neither add-on's.
      expect(errorOf(await member('GET', `room/${room}/webhook/${id}`))).toEqual(notFound);
      expect(errorOf(await member('DELETE', `room/${room}/webhook/${id}`))).toEqual(notFound);
      expect(await listed(member)).toEqual([]);

      // The installation itself, the room's owner and group admins.
      expect(await listed(alpha)).toEqual([id]);
      const own = await alpha('GET', `room/${room}/extension/webhook/relay`);
      expect([own.json.id, own.json.url]).toEqual([id, url]);
      // The owner and group admins see it, its URL masked: they are not its creator.
      for (const who of [owner, as(s.token)]) {
        const shown = await who('GET', `room/${room}/webhook/${id}`);
        expect([shown.status, shown.json.url]).toEqual([200, `${addon.base}/relay?secret=***`]);
        expect(await listed(who)).toEqual([id, theirs.json.id]);
      }
      expect((await owner('DELETE', `room/${room}/webhook/${theirs.json.id}`)).status).toBe(204);
      expect((await alpha('DELETE', `room/${room}/extension/webhook/relay`)).status).toBe(204);
      expect(await db.query('SELECT id FROM webhooks WHERE id = ANY($1)', [[id, theirs.json.id]])).toEqual([]);
      for (const installation of installations) expect((await call('DELETE', `addons/${installation}`)).status).toBe(204);
    });
  });

  describe('refusals', () => {
    const installCount = async () => (await db.query('SELECT count(*)::int AS n FROM addon_installations'))[0].n as number;

    it('names every defect of a descriptor (400), and installs nothing', async () => {
      const before = await installCount();
      const url = addon.serve('broken', {
        name: 'Broken',
        links: { self: `${addon.base}/d/broken` },
        capabilities: {
          hipchatApiConsumer: { scopes: ['launch_rockets'] },
          webhook: [
            { url: `${addon.base}/h`, event: 'room_renamed' },
            { url: 'ftp://example.com/h', event: 'room_message' },
            { url: `${addon.base}/h`, event: 'room_message', pattern: '(a)\\1' },
            { url: `${addon.base}/h`, event: 'room_exit', pattern: 'bye' },
            { url: `${addon.base}/h`, event: 'room_exit', key: 'k'.repeat(41) },
          ],
        },
      });
      const res = await call('POST', 'addons', { body: { url, room: roomA } });
      expect(res.status).toBe(400);
      const message: string = res.json.error.message;
      expect(message.startsWith(`Add-on descriptor ${url}: `)).toBe(true);
      for (const defect of [
        'key: is required',
        'capabilities.installable.callbackUrl: is required',
        'capabilities.hipchatApiConsumer.scopes[0]: unknown scope "launch_rockets"',
        'capabilities.webhook[0].event: must be one of room_archived,',
        'capabilities.webhook[1].url: must be an http(s) URL (got "ftp://example.com/h")',
        'capabilities.webhook[2].pattern: must be a regular expression the safe (RE2) engine accepts',
        'capabilities.webhook[3].pattern: applies to room_message webhooks only (this one is for room_exit)',
        'capabilities.webhook[4].key: must be 1 to 40 characters (got 41)',
      ]) expect(message).toContain(defect);
      expect(await installCount()).toBe(before);
    });

    it('refuses a room install of a global-only add-on and a group-wide install of a room-only one', async () => {
      const globalOnly = addon.serve('global-only', addon.descriptor('global-only', { installable: { callbackUrl: `${addon.base}/cb/global-only`, allowRoom: false } }));
      expect(errorOf(await call('POST', 'addons', { body: { url: globalOnly, room: roomA } }))).toEqual({
        status: 400, message: `Add-on descriptor ${globalOnly}: capabilities.installable.allowRoom: is false: this add-on cannot be installed in a room (install it group-wide)`,
      });
      const roomOnly = addon.serve('room-only', addon.descriptor('room-only', { installable: { callbackUrl: `${addon.base}/cb/room-only`, allowGlobal: false } }));
      expect(errorOf(await call('POST', 'addons', { body: { url: roomOnly } }))).toEqual({
        status: 400, message: `Add-on descriptor ${roomOnly}: capabilities.installable.allowGlobal: is false: this add-on cannot be installed group-wide (install it in a room)`,
      });
      expect(addon.of('POST', '/cb/global-only')).toEqual([]);
      expect(addon.of('POST', '/cb/room-only')).toEqual([]);
    });

    it('says why a descriptor could not be read', async () => {
      const missing = `${addon.base}/d/nowhere`;
      expect(errorOf(await call('POST', 'addons', { body: { url: missing } })))
        .toEqual({ status: 400, message: `Add-on descriptor ${missing}: could not be fetched: it answered HTTP 404` });
      const html = addon.serve('html', '<html>hi</html>');
      expect(errorOf(await call('POST', 'addons', { body: { url: html } })))
        .toEqual({ status: 400, message: `Add-on descriptor ${html}: could not be fetched: it is not JSON` });
    });

    it('checks the request itself', async () => {
      expect(errorOf(await call('POST', 'addons', { body: {} }))).toEqual({ status: 400, message: 'url: is required' });
      expect(errorOf(await call('POST', 'addons', { body: { url: 'ftp://x.example/d' } }))).toEqual({ status: 400, message: 'url: must be an http(s) URL (got "ftp://x.example/d")' });
      expect(errorOf(await call('POST', 'addons', { body: { url: `${addon.base}/d/roomy`, room: 'No Such Room' } }))).toEqual({ status: 404, message: 'Room No Such Room not found' });
      expect(errorOf(await call('GET', 'addons/abc'))).toEqual({ status: 404, message: 'Add-on installation abc not found' });
    });

    it('needs admin_group', async () => {
      const viewer = await s.personalToken(s.adminId, ['view_group', 'admin_room']);
      expect((await v2(stack.baseUrl, 'POST', 'addons', { token: viewer, body: { url: `${addon.base}/d/roomy` } })).status).toBe(403);
      expect((await v2(stack.baseUrl, 'GET', 'addons', { token: viewer })).status).toBe(403);
      expect((await v2(stack.baseUrl, 'GET', 'addons')).status).toBe(401);
    });

    it('a callback answering 500 aborts: 400 naming the status, nothing left, the token it got revoked', async () => {
      addon.onInstall('failing', { status: 500, token: { as: 'form', scope: 'send_notification' } });
      const url = addon.serve('failing', addon.descriptor('failing'));
      const res = await call('POST', 'addons', { body: { url, room: roomB } });
      expect(errorOf(res)).toEqual({
        status: 400, message: `The add-on's installation callback ${addon.base}/cb/failing failed (it answered HTTP 500); nothing was installed.`,
      });
      const oauthId = addon.of('POST', '/cb/failing')[0].json.oauthId;
      expect(await db.query(`SELECT id FROM addon_installations WHERE addon_key = 'com.example.failing'`)).toEqual([]);
      expect(await db.query('SELECT id FROM oauth_clients WHERE id = $1', [oauthId])).toEqual([]);
      expect(await db.query('SELECT id FROM webhooks WHERE oauth_client_id = $1', [oauthId])).toEqual([]);
      expect((await registrations()).filter((r) => r.oauthClientId === oauthId)).toEqual([]);
      // The framework got a token during the callback: it is revoked with the rest.
      const got = addon.tokenAnswers.get('failing')!;
      expect(got.status).toBe(200);
      await eventually(async () => expect((await notify(got.json.access_token, roomB)).status).toBe(401), 3000);
      const [tokenRow] = await db.query(`SELECT id, revoked_at IS NOT NULL AS revoked FROM api_tokens WHERE label = 'Test failing'`);
      expect(tokenRow.revoked).toBe(true);
      await capture.waitFor('token.revoked.v1', (e) => e.payload.tokenId === tokenRow.id);
      // Installed and removed: both notices name the same webhooks.
      const notices = capture.of('webhook.registrations-changed.v1', (e) => e.payload.roomId === roomB);
      expect(notices).toHaveLength(2);
      expect(notices[0].payload.webhookIds).toEqual(notices[1].payload.webhookIds);
      // Nothing left in the way: it installs once the add-on accepts.
      addon.onInstall('failing', { status: 200, token: null });
      expect((await call('POST', 'addons', { body: { url, room: roomB } })).status).toBe(201);
    });
  });
  it('documents its operations in the v2 OpenAPI document', async () => {
    const doc = await (await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`)).json() as any;
    expect(Object.keys(doc.paths['/v2/addons'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/v2/addons/{id}'])).toEqual(expect.arrayContaining(['get', 'delete']));
    expect(doc.paths['/v2/oauth/token'].post.security).toEqual([]);
    expect(Object.keys(doc.paths['/v2/oauth/token'].post.responses)).toContain('200');
  });

  it('lists installations, paginated', async () => {
    const all = await call('GET', 'addons');
    expect(all.status).toBe(200);
    expect(all.json.items.map((i: any) => [i.key, i.room_id])).toEqual([['com.example.global', null], ['com.example.failing', roomB]]);
    const first = await call('GET', 'addons', { query: { 'max-results': 1 } });
    expect(first.json).toMatchObject({ startIndex: 0, maxResults: 1, links: { self: `${BASE}/v2/addons`, next: `${BASE}/v2/addons?start-index=1&max-results=1` } });
    expect(first.json.items.map((i: any) => i.key)).toEqual(['com.example.global']);
    const second = await call('GET', 'addons', { query: { 'start-index': 1, 'max-results': 1 } });
    expect(second.json.items.map((i: any) => i.key)).toEqual(['com.example.failing']);
    expect(second.json.links.next).toBeUndefined();
  });
});

describe('v2 add-ons without WEBHOOK_ALLOWED_NETWORKS (real services)', () => {
  let stack: Stack;
  let addon: TestAddon;
  let s: V2Session;

  beforeAll(async () => {
    stack = await startStack({ gateway: true, rooms: true });
    s = await v2Session(stack);
    addon = await TestAddon.start(() => `${stack.baseUrl}/v2/oauth/token`);
  });

  afterAll(async () => {
    await addon?.stop();
    await stack?.stop();
  });

  it('refuses a loopback descriptor URL, by address or by name, and calls nothing', async () => {
    const url = addon.serve('local', addon.descriptor('local'));
    const byAddress = await v2(stack.baseUrl, 'POST', 'addons', { token: s.token, body: { url } });
    expect(errorOf(byAddress)).toEqual({
      status: 400,
      message: `Add-on descriptor ${url}: could not be fetched: the address is not allowed: 127.0.0.1 is a loopback address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)`,
    });
    const byName = url.replace('127.0.0.1', 'localhost');
    const refused = await v2(stack.baseUrl, 'POST', 'addons', { token: s.token, body: { url: byName } });
    expect(errorOf(refused)).toEqual({ status: 400, message: expect.stringMatching(/could not be fetched: the address is not allowed: localhost: .* is a loopback address; refused/) });
    expect(addon.received).toEqual([]);
  });
});

describe('v2 add-ons: plain http only within WEBHOOK_ALLOWED_NETWORKS (real services)', () => {
  let stack: Stack;
  let db: DataSource;
  let s: V2Session;
  /** Serves descriptors from 127.0.0.2, the one address the operator allows. */
  let addon: TestAddon;
  /** An add-on's callback on 127.0.0.1: loopback like the other, but outside the allowed networks. */
  let outside: TestAddon;

  const counts = async () => (await db.query(
    'SELECT (SELECT count(*)::int FROM addon_installations) AS installations, (SELECT count(*)::int FROM oauth_clients) AS clients',
  ))[0];

  beforeAll(async () => {
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000' }, rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32' } });
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
    addon = await TestAddon.start(() => `${stack.baseUrl}/v2/oauth/token`, '127.0.0.2');
    outside = await TestAddon.start(() => `${stack.baseUrl}/v2/oauth/token`);
  });

  afterAll(async () => {
    await addon?.stop();
    await outside?.stop();
    await stack?.stop();
  });

  const install = (url: string) => v2(stack.baseUrl, 'POST', 'addons', { token: s.token, body: { url } });

  it('refuses an http callbackUrl outside them: 400 naming the field and the rule, nothing installed, no secret sent', async () => {
    const before = await counts();
    const url = addon.serve('plain', addon.descriptor('plain', {
      installable: { callbackUrl: `${outside.base}/cb/plain` }, webhook: [{ url: `${addon.base}/hook/plain`, event: 'room_enter' }],
    }));
    expect(errorOf(await install(url))).toEqual({
      status: 400,
      message: `Add-on descriptor ${url}: capabilities.installable.callbackUrl: must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and 127.0.0.1 is not in them`,
    });
    expect(await counts()).toEqual(before);
    expect(outside.received).toEqual([]);
    expect(addon.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /d/plain']);
  });

  it('accepts an https callbackUrl outside them up to the network step (the address guard refuses loopback)', async () => {
    const before = await counts();
    const callbackUrl = outside.base.replace('http:', 'https:') + '/cb/tls';
    const url = addon.serve('tls', addon.descriptor('tls', { installable: { callbackUrl }, webhook: [] }));
    expect(errorOf(await install(url))).toEqual({
      status: 400,
      message: `The add-on's installation callback ${callbackUrl} failed (the address is not allowed: 127.0.0.1 is a loopback address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)); nothing was installed.`,
    });
    expect(await counts()).toEqual(before);
    expect(outside.received).toEqual([]);
  });

  it('installs with an http callbackUrl inside them', async () => {
    const url = addon.serve('inside', addon.descriptor('inside', { webhook: [] }));
    const res = await install(url);
    expect(res.status).toBe(201);
    expect(addon.of('POST', '/cb/inside')).toHaveLength(1);
    expect((await v2(stack.baseUrl, 'DELETE', `addons/${res.json.id}`, { token: s.token })).status).toBe(204);
  });

  it('refuses an http descriptor URL outside them (400 naming url and the rule) without fetching it; the address guard still comes first', async () => {
    expect(errorOf(await install('http://8.8.8.8:9/descriptor?token=s3cret'))).toEqual({
      status: 400, message: 'url: must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and 8.8.8.8 is not in them',
    });
    const loopback = outside.serve('any', outside.descriptor('any'));
    expect(errorOf(await install(loopback))).toEqual({
      status: 400, message: `Add-on descriptor ${loopback}: could not be fetched: the address is not allowed: 127.0.0.1 is a loopback address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)`,
    });
    expect(outside.received).toEqual([]);
  });
});


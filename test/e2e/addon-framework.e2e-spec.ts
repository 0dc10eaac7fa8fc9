/**
 * The "Done means", end to end: an add-on written with a real add-on framework from
 * the npm registry (ac-koa-hipchat, test/e2e/addon/greeter.ts) is installed into the running
 * system (the three built services, as `npm start` runs them, loopback opened with
 * WEBHOOK_ALLOWED_NETWORKS) from its descriptor URL; the framework takes the installation
 * callback, reads our capabilities document and fetches an OAuth token; messages matching its
 * pattern reach it with a JWT the framework's verifier accepts; its replies (the JSON body
 * of its answer, and a notification through the framework's REST client) appear in the
 * room's history and as room.notification-sent.v2 events; uninstalling calls it back.
 */
import { execFile } from 'node:child_process';
import jwt, { JwtPayload } from 'jsonwebtoken';
import { EventCapture } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { CLI, cli, ROOT, startTestSystem, TestSystem } from '../support/processes';
import { GreeterAddon, startGreeter, WEBHOOK_PATH } from './addon/greeter';

const SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';

/**
 * The CLI without blocking this process: the add-on answering the CLI's calls runs in it
 * (the support's `cli()` is spawnSync, under which the add-on could not answer).
 * `without`: variables removed from the CLI's environment (also this process's own).
 */
function cliAsync(args: string[], env: Record<string, string>, without: string[] = []): Promise<{ status: number; stdout: string; stderr: string }> {
  const cliEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of without) delete cliEnv[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: cliEnv, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The add-on's name in its descriptor: the sender of its replies in the room. */
const GREETER_NAME = 'Greeter';

// No wait after an install or uninstall: every event carries the registrations' version it was
// committed after, and a dispatcher matches it only once its index has reached that version.
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the add-on saw, for a failure message: its requests and the framework's own calls. */
function addonSaw(addon: GreeterAddon) {
  return {
    requests: addon.requests.map((r) => ({ call: `${r.method} ${r.path}`, status: r.status, body: r.body, answer: r.responseBody })),
    frameworkCalls: addon.outbound.map((o) => ({ call: `${o.method} ${o.url}`, status: o.status, error: o.error, answer: o.responseBody })),
  };
}

describe('an add-on built with ac-koa-hipchat, installed from its descriptor', () => {
  let stack: TestSystem;
  let env: Record<string, string>;
  let baseUrl: string;
  let capture: EventCapture;
  let token: string;
  let admin: { id: number; name: string; email: string };

  /** A v2 call as the group admin; answers the status and the parsed body (if any). */
  function v2(verb: string, path: string, body?: unknown): Promise<Answer> {
    return v2Call(baseUrl, token, verb, path, body);
  }

  async function createRoom(name: string): Promise<number> {
    const made = await v2('POST', '/room', { name, privacy: 'public' });
    expect(made).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    return made.body.id;
  }

  async function say(roomId: number, message: string): Promise<void> {
    const sent = await v2('POST', `/room/${roomId}/message`, { message });
    expect([sent.status, sent.body]).toEqual([201, expect.anything()]);
  }

  async function history(roomId: number): Promise<any[]> {
    const res = await v2('GET', `/room/${roomId}/history`);
    expect(res.status).toBe(200);
    return res.body.items;
  }

  /** The deliveries of room events the add-on received (its webhook route), in order. */
  const deliveries = (addon: GreeterAddon) => addon.requests.filter((r) => r.method === 'POST' && r.path === WEBHOOK_PATH);

  beforeAll(async () => {
    stack = await startTestSystem('e2e_addon', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
    ({ env, baseUrl } = stack);
    capture = await EventCapture.start(env.AMQP_URL, env.BROKER_NAMESPACE, 'room.#');
    // The group admin, made through v1 with a v1 admin token, then their personal v2 token from the CLI.
    const v1 = cli(['token', 'create', '--type', 'admin'], env).stdout.trim();
    const email = `admin-${Date.now()}@example.com`;
    const res = await fetch(`${baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1, name: 'Group Admin', email, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    const made = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', SCOPES], env);
    expect(made.status).toBe(0);
    token = made.stdout.trim();
    const me = await v2('GET', `/user/${encodeURIComponent(email)}`);
    expect(me.status).toBe(200);
    admin = { id: me.body.id, name: me.body.name, email };
  }, 90_000);

  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  }, 30_000);

  describe('installed in a room through POST /v2/addons', () => {
    let greeter: GreeterAddon;
    let roomId: number;
    let installation: { id: number; oauth_id: string; links: Record<string, string> };
    let helloReply: any;

    beforeAll(async () => {
      greeter = await startGreeter({ key: 'greeter-e2e', name: GREETER_NAME });
      roomId = await createRoom('Greeting Room');
    });

    afterAll(async () => {
      await greeter?.stop();
    });

    it('installs: the framework takes the callback, reads our capabilities document and fetches a token', async () => {
      const created = await v2('POST', '/addons', { url: greeter.descriptorUrl, room: roomId });
      expect({ ...created, addon: created.status === 201 ? 'ok' : addonSaw(greeter) }).toMatchObject({
        status: 201, body: { id: expect.any(Number), oauth_id: expect.any(String), links: expect.any(Object) }, addon: 'ok',
      });
      installation = created.body;

      const installed = await greeter.waitFor('the install callback', () => greeter.lifecycle.find((l) => l.event === 'install'));
      expect(installed).toMatchObject({ tenantId: installation.oauth_id, roomId, groupId: expect.any(Number) });

      // The installation POST, exactly as the framework read it.
      const callback = greeter.requests.find((r) => r.method === 'POST' && r.path === '/addon/installable')!;
      expect(callback.status).toBe(204);
      expect(callback.body).toEqual({
        oauthId: installation.oauth_id,
        oauthSecret: expect.any(String),
        capabilitiesUrl: `${baseUrl}/v2/capabilities`,
        roomId,
        groupId: expect.any(Number),
      });

      // It read our capabilities document (links.self is, string for string, the capabilitiesUrl) ...
      const [caps, tokenCall] = greeter.outbound;
      expect(caps).toMatchObject({ method: 'GET', url: `${baseUrl}/v2/capabilities`, status: 200 });
      expect(caps.responseBody.links).toMatchObject({ self: callback.body.capabilitiesUrl, api: `${baseUrl}/v2` });
      // ... and got a token with client credentials (HTTP Basic, JSON body) before answering.
      expect(tokenCall).toMatchObject({
        method: 'POST', url: `${baseUrl}/v2/oauth/token`, auth: 'basic', status: 200,
        body: { grant_type: 'client_credentials', scope: 'send_notification' },
      });
      expect(tokenCall.responseBody).toMatchObject({
        access_token: expect.any(String), expires_in: expect.any(Number), token_type: 'bearer',
        group_id: callback.body.groupId, group_name: expect.any(String),
      });
      expect(tokenCall.responseBody.scope.split(' ')).toContain('send_notification');
      expect(await greeter.cachedToken(installation.oauth_id, 'send_notification')).toMatchObject({ access_token: tokenCall.responseBody.access_token });

      const tenant = await greeter.tenant(installation.oauth_id);
      expect(tenant).toMatchObject({
        id: installation.oauth_id, secret: callback.body.oauthSecret, room: roomId,
        links: { api: `${baseUrl}/v2`, token: `${baseUrl}/v2/oauth/token` },
      });

      const listed = await v2('GET', `/addons/${installation.id}`);
      expect(listed.status).toBe(200);
    });

    it('delivers only the matching message; the framework runs its handler once and answers with the JSON reply', async () => {
      expect(installation).toBeDefined();
      await say(roomId, 'good morning');
      await say(roomId, '/hello world');
      await greeter.waitFor('the /hello handler', () => greeter.runs.find((r) => r.webhook === 'hello'));
      helloReply = await capture.waitFor('room.notification-sent.v2', (e) => e.payload.message.message === `Hello, ${admin.name}!`, 15_000);
      // Leave time for a wrong delivery (the non-matching message, a retry) to show up.
      await pause(1_500);

      // Our dispatcher applied the pattern: one delivery, for '/hello world'; the handler ran once.
      expect(deliveries(greeter).map((d) => d.body?.item?.message?.message)).toEqual(['/hello world']);
      const runs = greeter.runs.filter((r) => r.webhook === 'hello');
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ content: '/hello world', senderId: admin.id, senderName: admin.name, roomId, tenantId: installation.oauth_id });
      const delivery = deliveries(greeter)[0];
      expect(delivery.status).toBe(200);
      expect(delivery.body).toMatchObject({ event: 'room_message', webhook_id: expect.any(Number), oauth_client_id: installation.oauth_id, item: { room: { id: roomId } } });
      expect(delivery.responseBody).toEqual({ message: `Hello, ${admin.name}!`, color: 'green', message_format: 'text', notify: false });
    });

    it('posts that JSON reply into the room: in the history, and as room.notification-sent.v2 caused by the delivery', async () => {
      expect(helloReply).toBeDefined();
      const items = await history(roomId);
      expect(items.map((m) => m.message)).toEqual(expect.arrayContaining(['good morning', '/hello world', `Hello, ${admin.name}!`]));
      // Sent as the add-on (its descriptor's name), not under the hash the framework names its webhook with.
      expect(items.find((m) => m.message === `Hello, ${admin.name}!`)).toMatchObject({ type: 'notification', color: 'green', message_format: 'text', from: GREETER_NAME });
      expect(helloReply.payload).toMatchObject({
        room: { id: roomId }, message: { message: `Hello, ${admin.name}!`, color: 'green', message_format: 'text' },
        causedBy: { webhookId: deliveries(greeter)[0].body.webhook_id },
      });
    });

    it('signs the delivery with a JWT the framework\'s verifier accepts (issuer, HS256 with the oauthSecret it stored)', async () => {
      const check = greeter.jwtChecks[0];
      expect(check).toMatchObject({ accepted: true, issuer: installation.oauth_id, context: { room_id: roomId } });
      // And by jsonwebtoken, with the oauthSecret the framework stored at installation.
      const tenant = await greeter.tenant(installation.oauth_id);
      const raw = check.signedRequest ?? /^JWT\s+(?:token\s*=\s*)?(\S+)$/i.exec(check.authorization ?? '')?.[1];
      expect(raw).toEqual(expect.any(String));
      const claims = jwt.verify(raw!, tenant.secret, { algorithms: ['HS256'] }) as JwtPayload;
      expect(claims).toMatchObject({ iss: installation.oauth_id, jti: expect.any(String), context: { room_id: roomId, user_tz: expect.any(String) } });
      expect(claims.exp! - claims.iat!).toBeGreaterThan(0);
      expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(600);
      expect(() => jwt.verify(raw!, `${tenant.secret}x`, { algorithms: ['HS256'] })).toThrow(/signature/);
    });

    it('names the acting user in the JWT (`sub` and `prn`, as digits): the framework\'s `authentication.userId`', async () => {
      const check = greeter.jwtChecks[0];
      const raw = check.signedRequest ?? /^JWT\s+(?:token\s*=\s*)?(\S+)$/i.exec(check.authorization ?? '')?.[1];
      expect(jwt.decode(raw!)).toMatchObject({ sub: String(admin.id), prn: String(admin.id) });
      expect(check.userId).toBe(String(admin.id));
      expect(greeter.runs.find((r) => r.webhook === 'hello')?.jwtUserId).toBe(String(admin.id));
    });

    it('lets the add-on reply through the REST API with the token the framework fetched', async () => {
      expect(installation).toBeDefined();
      await say(roomId, '/wave hi there');
      const run = await greeter.waitFor('the /wave handler and its REST reply', () => greeter.runs.find((r) => r.webhook === 'wave' && r.restReply));
      expect(run.restReply).toEqual({ ok: true });
      const text = `${admin.name} waved; waving back`;
      const sent = greeter.outbound.find((o) => o.method === 'POST' && o.url === `${baseUrl}/v2/room/${roomId}/notification`);
      expect(sent).toMatchObject({ auth: 'bearer', status: 204, body: { message: text, color: 'purple', message_format: 'text' } });
      const event = await capture.waitFor('room.notification-sent.v2', (e) => e.payload.message.message === text);
      expect(event.payload).toMatchObject({ room: { id: roomId }, message: { message: text, color: 'purple' } });
      expect(event.payload.causedBy).toBeUndefined();
      // The delivery of '/wave' was answered 204: nothing posted for it but the REST call.
      const delivery = deliveries(greeter).find((d) => d.body?.item?.message?.message === '/wave hi there');
      expect(delivery?.status).toBe(204);
      expect((await history(roomId)).find((m) => m.message === text)).toMatchObject({ type: 'notification', color: 'purple' });
    });

    it('hands the JWT where the framework reads it (`?signed_request=` or `Authorization: JWT token=...`)', () => {
      // ac-node-hipchat/lib/authenticator.js reads only these two forms; HipChat's webhook
      // documentation names `signed_request`. A bare `Authorization: JWT <token>` needs the
      // add-on's own unwrapping (greeter.ts) before the framework's verifier sees it.
      expect(greeter.jwtChecks.length).toBeGreaterThan(0);
      for (const check of greeter.jwtChecks) {
        const sent = {
          authorization: check.authorization === undefined ? 'none' : check.authorization.replace(/[\w-]+\.[\w-]+\.[\w-]+/, '<jwt>'),
          signedRequest: check.signedRequest === undefined ? 'none' : '<jwt>',
        };
        expect({ sent, read: check.asFrameworkReadsIt }).toEqual({ sent, read: { ok: true } });
      }
    });

    it('uninstalls: 204, the framework gets DELETE {callbackUrl}/{oauthId}, and deliveries stop', async () => {
      expect(installation).toBeDefined();
      const removed = await v2('DELETE', `/addons/${installation.id}`);
      expect(removed.status).toBe(204);
      const gone = await greeter.waitFor('the uninstall callback', () => greeter.lifecycle.find((l) => l.event === 'uninstall'));
      expect(gone.tenantId).toBe(installation.oauth_id);
      expect(greeter.requests.find((r) => r.method === 'DELETE')).toMatchObject({ path: `/addon/installable/${installation.oauth_id}`, status: 204 });
      expect(await greeter.tenant(installation.oauth_id)).toBeUndefined();
      expect((await v2('GET', `/addons/${installation.id}`)).status).toBe(404);

      const before = deliveries(greeter).length;
      await say(roomId, '/hello anyone?');
      await pause(2_000);
      expect(deliveries(greeter)).toHaveLength(before);
    });
  });

  describe('installed with the CLI', () => {
    let greeter: GreeterAddon;

    beforeAll(async () => {
      greeter = await startGreeter({ key: 'greeter-cli', name: 'CLI Greeter' });
    });

    afterAll(async () => {
      await greeter?.stop();
    });

    it('`addon install <descriptor-url> --room <name>` installs it, it answers /hello, `addon uninstall <id>` removes it', async () => {
      const roomId = await createRoom('CLI Room');
      const installed = await cliAsync(['addon', 'install', greeter.descriptorUrl, '--room', 'CLI Room'], env);
      expect({ status: installed.status, stderr: installed.stderr, addon: installed.status === 0 ? 'ok' : addonSaw(greeter) }).toEqual({ status: 0, stderr: '', addon: 'ok' });
      expect(installed.stdout.trim().split('\n')).toHaveLength(1);
      const installation = JSON.parse(installed.stdout);
      expect(installation).toEqual({ id: expect.any(Number), oauth_id: expect.any(String), key: 'greeter-cli', room_id: roomId });
      const oauthId: string = installation.oauth_id;

      const event = await greeter.waitFor('the install callback', () => greeter.lifecycle.find((l) => l.event === 'install'));
      expect(event).toMatchObject({ tenantId: oauthId, roomId });

      await say(roomId, '/hello from the CLI room');
      await greeter.waitFor('the /hello handler', () => greeter.runs.find((r) => r.webhook === 'hello')).catch((err) => {
        // What the dispatcher logged meanwhile, for whoever reads the failure.
        console.log(JSON.stringify(stack.launched.logs((l) => l.service === 'webhook-dispatcher' || l.service === 'rooms').slice(-80).map((l) => JSON.stringify(l)), null, 1));
        throw err;
      });
      await capture.waitFor('room.notification-sent.v2', (e) => e.payload.room.id === roomId && e.payload.message.message === `Hello, ${admin.name}!`, 15_000);
      expect((await history(roomId)).map((m) => m.message)).toContain(`Hello, ${admin.name}!`);

      const removed = await cliAsync(['addon', 'uninstall', String(installation.id)], env);
      expect({ status: removed.status, stderr: removed.stderr }).toEqual({ status: 0, stderr: `uninstalled add-on installation ${installation.id}: its webhooks and tokens are gone\n` });
      await greeter.waitFor('the uninstall callback', () => greeter.lifecycle.find((l) => l.event === 'uninstall'));
      expect(await greeter.tenant(oauthId)).toBeUndefined();
    });
  });

  describe('the CLI goes through the running rooms service', () => {
    let greeter: GreeterAddon;

    beforeAll(async () => {
      greeter = await startGreeter({ key: 'greeter-cli-env', name: 'CLI Env Greeter' });
    });

    afterAll(async () => {
      await greeter?.stop();
    });

    it('installs an add-on on loopback from a shell without WEBHOOK_ALLOWED_NETWORKS: the service\'s setting governs the calls', async () => {
      expect(env.WEBHOOK_ALLOWED_NETWORKS).toBe('127.0.0.0/8');
      const roomId = await createRoom('CLI Env Room');
      const installed = await cliAsync(['addon', 'install', greeter.descriptorUrl, '--room', String(roomId)], env, ['WEBHOOK_ALLOWED_NETWORKS']);
      expect({ status: installed.status, stderr: installed.stderr, addon: installed.status === 0 ? 'ok' : addonSaw(greeter) }).toEqual({ status: 0, stderr: '', addon: 'ok' });
      const installation = JSON.parse(installed.stdout);
      expect(installation).toEqual({ id: expect.any(Number), oauth_id: expect.any(String), key: 'greeter-cli-env', room_id: roomId });
      await greeter.waitFor('the install callback', () => greeter.lifecycle.find((l) => l.event === 'install'));

      const listed = await cliAsync(['addon', 'list'], env, ['WEBHOOK_ALLOWED_NETWORKS']);
      expect({ status: listed.status, stderr: listed.stderr }).toEqual({ status: 0, stderr: '' });
      expect(listed.stdout.split('\n')[0]).toBe('ID\tKEY\tROOM\tOAUTH_ID\tWEBHOOKS\tCREATED\tNAME');
      expect(listed.stdout).toContain(`${installation.id}\tgreeter-cli-env\t${roomId}\t${installation.oauth_id}\t`);

      const removed = await cliAsync(['addon', 'uninstall', String(installation.id)], env, ['WEBHOOK_ALLOWED_NETWORKS']);
      expect({ status: removed.status, stderr: removed.stderr }).toEqual({ status: 0, stderr: `uninstalled add-on installation ${installation.id}: its webhooks and tokens are gone\n` });
      await greeter.waitFor('the uninstall callback', () => greeter.lifecycle.find((l) => l.event === 'uninstall'));
      const again = await cliAsync(['addon', 'uninstall', String(installation.id)], env);
      expect(again).toEqual({ status: 1, stdout: '', stderr: `cli: no add-on installation ${installation.id}\n` });
    });

    it('says so, and exits 1, when no rooms service serves the namespace', async () => {
      const namespace = `${env.BROKER_NAMESPACE}-nobody`;
      const started = Date.now();
      // A command timeout of 30 s: a CLI that waited for an answer instead of checking would take that long.
      const result = await cliAsync(['addon', 'install', greeter.descriptorUrl], { ...env, BROKER_NAMESPACE: namespace, COMMAND_TIMEOUT_MS: '30000' });
      expect(result).toEqual({
        status: 1, stdout: '', stderr: `cli: the rooms service is not running (no answer on ${namespace}.rooms.commands); start it with npm start\n`,
      });
      // Well under it, with room for a CLI start on a busy 2-core machine (6.7 s was seen under a full test run).
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});

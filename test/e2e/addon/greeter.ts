/**
 * A HipChat add-on written with ac-koa-hipchat (koa 0.x, generator middleware) the way the
 * framework's "Greeter" example is: `app.addon().hipchat()...`, `addon.webhook('room_message',
 * /pattern/, function *() {...})`, tenants kept in ac-node's in-memory store. It runs inside
 * the test process on 127.0.0.1 and a random port, and records what happens to it so a test
 * can assert on the framework's side of each exchange.
 *
 * Two room_message webhooks, both declared with `authentication: jwt`:
 * - `/hello ...` (or `helloPattern`) answers the delivery with 200 and a JSON notification
 *   (HipChat's reply form);
 * - `/wave ...` answers 204 and posts a notification through the framework's REST client,
 *   with the OAuth token it requests from our token URL.
 *
 * Webhook JWTs are checked by the framework's own verifier (ac-node-hipchat's authenticator:
 * issuer looked up among the installed tenants, HS256 signature with the tenant's
 * oauthSecret, expiry in production mode). ac-koa-hipchat does not run it on its webhook
 * route by itself (lib/index.js, mountAddonWebhooks), so the add-on puts it in front.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

// The framework's own copies of its dependencies (ac-koa and ac-node come with ac-koa-hipchat):
// the tenants this file reads must be the ones the framework wrote, in the same module.
const fromHipchat = createRequire(require.resolve('ac-koa-hipchat'));
const fromAcKoa = createRequire(fromHipchat.resolve('ac-koa'));
const fromAcNodeHipchat = createRequire(fromHipchat.resolve('ac-node-hipchat'));
/* eslint-disable @typescript-eslint/no-explicit-any */
const ack: any = quietly(() => fromHipchat('ac-koa'));
const acNode: any = fromAcKoa('ac-node');
const hipchat: any = fromHipchat('ac-node-hipchat');
const request: any = fromAcNodeHipchat('request');

ack.require('hipchat', fromHipchat('ac-koa-hipchat'));

/** ac-node loads its MongoDB store too, whose bson package reports its missing native build on the console. */
function quietly<T>(load: () => T): T {
  const { error, dir } = console;
  console.error = () => undefined;
  console.dir = () => undefined;
  try {
    return load();
  } finally {
    console.error = error;
    console.dir = dir;
  }
}

export const WEBHOOK_PATH = '/addon/webhook';
export const INSTALLABLE_PATH = '/addon/installable';
export const DESCRIPTOR_PATH = '/addon/capabilities';

/** One HTTP request our service made to the add-on, as the add-on answered it. */
export interface AddonRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  status: number;
  responseBody: any;
  at: number;
}

/** What the framework's JWT verifier said about one webhook delivery. */
export interface JwtCheck {
  webhookName: string | undefined;
  authorization: string | undefined;
  signedRequest: string | undefined;
  /** The verifier given the request exactly as `addon.authenticate()` reads it (query `signed_request`, `Authorization: JWT token=...`). */
  asFrameworkReadsIt: { ok: true } | { ok: false; error: string };
  /** The verifier given the bare token of `Authorization: JWT <token>` (HipChat's header form), when the first read failed. */
  bareHeaderToken?: { ok: true } | { ok: false; error: string };
  accepted: boolean;
  /** The framework's authentication object when accepted: `userId` is the JWT's `prn`. */
  userId?: string;
  context?: Record<string, unknown>;
  issuer?: string;
}

/** One run of a webhook handler (the framework matched its pattern and called it). */
export interface HandlerRun {
  webhook: 'hello' | 'wave';
  content: string;
  senderId: number | undefined;
  senderName: string | undefined;
  roomId: number | undefined;
  webhookId: number;
  tenantId: string;
  jwtUserId: string | undefined;
  /** `/wave` only: how the REST notification went. */
  restReply?: { ok: true } | { ok: false; error: string };
  at: number;
}

/** An outbound call the framework made through its HTTP client (capabilities, token, REST). */
export interface OutboundCall {
  method: string;
  url: string;
  auth: 'basic' | 'bearer' | 'none';
  body: any;
  status?: number;
  responseBody?: any;
  error?: string;
  at: number;
}

export interface Lifecycle {
  event: 'install' | 'uninstall';
  tenantId: string;
  roomId: number | undefined;
  groupId: number | undefined;
  at: number;
}

export interface GreeterAddon {
  baseUrl: string;
  descriptorUrl: string;
  key: string;
  requests: AddonRequest[];
  jwtChecks: JwtCheck[];
  runs: HandlerRun[];
  outbound: OutboundCall[];
  lifecycle: Lifecycle[];
  /** The tenant the framework stored for an installation (its `secret` is the oauthSecret), if installed. */
  tenant(oauthId: string): Promise<any>;
  /** The access token data the framework cached for a tenant and scope. */
  cachedToken(oauthId: string, scope: string): Promise<any>;
  /** Resolves when `check` returns something truthy (polling the records), or rejects after `timeoutMs`. */
  waitFor<T>(what: string, check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

/**
 * ac-node's MemoryStore with its expiry timers unref'd and cleared on stop: the store keeps
 * a token for `expires_in - 60` s with a plain setTimeout, which would keep Jest alive.
 */
function trackedMemoryStore(scope: string, timers: Set<NodeJS.Timeout>): any {
  const MemoryStore = acNode.MemoryStore;
  function TrackedStore(this: any, s: string) {
    MemoryStore.call(this, s);
  }
  TrackedStore.prototype = Object.create(MemoryStore.prototype);
  TrackedStore.prototype._set = function (key: string, value: unknown, expiresIn?: number) {
    const stored = MemoryStore.prototype._set.call(this, key, value);
    if (expiresIn) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void MemoryStore.prototype._del.call(this, key);
      }, Math.max(0, expiresIn) * 1000);
      timer.unref();
      timers.add(timer);
    }
    return stored;
  };
  TrackedStore.prototype.narrow = function (subscope: string) {
    return new (TrackedStore as any)(this._key(subscope));
  };
  return new (TrackedStore as any)(scope);
}

/** A JSON body as sent (koa-json has already made it text), or the body as it is. */
function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Who sent a room_message, as ac-node-hipchat's extractor hands it over (`sender` is the
 * item's `message.from`): a user object for a person in the room, a string for a message
 * that came in from elsewhere (a bridged channel's "Grace Hopper (Mattermost)").
 */
const senderNameOf = (sender: unknown): string | undefined =>
  typeof sender === 'string' ? sender : (sender as { name?: string } | undefined)?.name;

export interface GreeterOptions {
  key: string;
  name?: string;
  /** What the `hello` webhook answers (its descriptor pattern); `/^\/hello\b/` unless given. */
  helloPattern?: RegExp;
}

export async function startGreeter(options: GreeterOptions): Promise<GreeterAddon> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;

  const requests: AddonRequest[] = [];
  const jwtChecks: JwtCheck[] = [];
  const runs: HandlerRun[] = [];
  const outbound: OutboundCall[] = [];
  const lifecycle: Lifecycle[] = [];
  const timers = new Set<NodeJS.Timeout>();

  // The framework's HTTP client is `request`; this one records each call it makes.
  const httpClient = (opts: any, callback: (err: any, res: any, body: any) => void) => {
    const call: OutboundCall = {
      method: String(opts.method ?? 'GET').toUpperCase(),
      url: String(opts.uri ?? opts.url),
      auth: opts.auth?.bearer ? 'bearer' : opts.auth?.username ? 'basic' : 'none',
      body: opts.body,
      at: Date.now(),
    };
    outbound.push(call);
    return request(opts, (err: any, res: any, body: any) => {
      if (err) call.error = String(err.message ?? err);
      else {
        call.status = res.statusCode;
        call.responseBody = body;
      }
      callback(err, res, body);
    });
  };

  const store = trackedMemoryStore(`greeter-${options.key}-${port}`, timers);
  const nodeEnv = process.env.NODE_ENV || 'development';
  const app = ack({
    name: options.key,
    displayName: options.name ?? 'Greeter',
    description: 'Greets whoever says /hello, waves back at /wave (an ac-koa-hipchat add-on in the end-to-end tests).',
    version: '0.0.1',
    author: { name: 'Chat Room Service tests', url: baseUrl },
    [nodeEnv]: { localBaseUrl: baseUrl, port },
  }, { store, httpClient });

  // Outermost: record every request and how the add-on answered it.
  app.use(function* (this: any, next: any): any {
    const entry: AddonRequest = {
      method: this.method, path: this.path, query: { ...this.query }, headers: { ...this.header },
      body: undefined, status: 0, responseBody: undefined, at: Date.now(),
    };
    try {
      yield next;
      entry.status = this.status;
      entry.responseBody = parsedBody(this.body);
    } catch (err: any) {
      // koa answers a thrown error after this middleware: record what it will answer.
      entry.status = err.status ?? 500;
      entry.responseBody = err.expose ? err.message : undefined;
      throw err;
    } finally {
      entry.body = this.request.body;
      requests.push(entry);
    }
  });

  const addon = app.addon()
    .hipchat()
    .key(options.key)
    .name(options.name ?? 'Greeter')
    .allowRoom(true)
    .allowGlobal(true)
    .scopes('send_notification');

  // The framework's JWT verifier over the same tenants the framework stores at installation.
  const tenants = acNode.Tenants(store.narrow('tenant'));
  // In production mode, as a deployed add-on runs it: only then does it check `exp` (and a 15-minute issued-at window).
  const authenticate = hipchat.authenticator('production', tenants, {});
  addon.use(function* (this: any, next: any): any {
    if (this.method !== 'POST' || this.path !== WEBHOOK_PATH) return yield next;
    const authorization: string | undefined = this.get('authorization') || undefined;
    const signedRequest: string | undefined = this.query.signed_request;
    const check: JwtCheck = {
      webhookName: this.query.name, authorization, signedRequest, asFrameworkReadsIt: { ok: true }, accepted: false,
    };
    jwtChecks.push(check);
    let auth: any;
    try {
      auth = yield authenticate(signedRequest, authorization);
    } catch (err: any) {
      check.asFrameworkReadsIt = { ok: false, error: String(err.message ?? err) };
    }
    // Our service sends `Authorization: JWT <token>` (HipChat's JWT guide names the header,
    // and its JavaScript API sends that form too); the framework's header parser knows only
    // `JWT token=<token>` (ac-node-hipchat/lib/authenticator.js), so hand it the bare token.
    const bare = /^JWT\s+(?!token\s*=)(\S+)\s*$/i.exec(authorization ?? '');
    if (!auth && bare) {
      try {
        auth = yield authenticate(bare[1]);
        check.bareHeaderToken = { ok: true };
      } catch (err: any) {
        check.bareHeaderToken = { ok: false, error: String(err.message ?? err) };
      }
    }
    if (!auth) {
      this.set('WWW-Authenticate', 'JWT');
      this.throw(401, 'webhook JWT missing or not valid');
    }
    Object.assign(check, { accepted: true, userId: auth.userId, context: auth.context, issuer: auth.issuer?.id });
    this.authentication = auth;
    yield next;
  });

  addon.onWebhook('install', function* (this: any): any {
    lifecycle.push({ event: 'install', tenantId: this.tenant.id, roomId: this.tenant.room, groupId: this.tenant.group, at: Date.now() });
  });
  addon.onWebhook('uninstall', function* (this: any): any {
    lifecycle.push({ event: 'uninstall', tenantId: this.tenant.id, roomId: this.tenant.room, groupId: this.tenant.group, at: Date.now() });
  });

  const runOf = (ctx: any, webhook: HandlerRun['webhook']): HandlerRun => ({
    webhook,
    content: ctx.content,
    senderId: ctx.sender?.id,
    senderName: senderNameOf(ctx.sender),
    roomId: ctx.room?.id,
    webhookId: ctx.webhookId,
    tenantId: ctx.tenant?.id,
    jwtUserId: ctx.authentication?.userId,
    at: Date.now(),
  });

  addon.webhook({ event: 'room_message', pattern: options.helloPattern ?? /^\/hello\b/, authentication: 'jwt' }, function* (this: any): any {
    runs.push(runOf(this, 'hello'));
    // Set before the first yield: the framework answers the delivery once the handler yields or ends.
    this.status = 200;
    this.body = { message: `Hello, ${senderNameOf(this.sender) ?? 'you'}!`, color: 'green', message_format: 'text', notify: false };
  });

  addon.webhook({ event: 'room_message', pattern: /^\/wave\b/, authentication: 'jwt' }, function* (this: any): any {
    const run = runOf(this, 'wave');
    runs.push(run);
    try {
      yield this.roomClient.sendNotification(`${this.sender?.name ?? 'Someone'} waved; waving back`, { color: 'purple', format: 'text' });
      run.restReply = { ok: true };
    } catch (err: any) {
      // co 3 rethrows a handler's error outside any request: keep it as a record instead.
      run.restReply = { ok: false, error: String(err.message ?? err) };
    }
  });

  server.on('request', app.callback());
  // The builder freezes and mounts the framework's routes on the next tick.
  await new Promise((r) => setImmediate(r));

  const descriptorUrl = `${baseUrl}${DESCRIPTOR_PATH}`;
  const addonApi: GreeterAddon = {
    baseUrl,
    descriptorUrl,
    key: options.key,
    requests,
    jwtChecks,
    runs,
    outbound,
    lifecycle,
    tenant: (oauthId) => Promise.resolve(tenants.get(oauthId)),
    cachedToken: (oauthId, scope) => Promise.resolve(store.narrow('tenant').narrow(oauthId).narrow('token').get(scope)),
    async waitFor<T>(what: string, check: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = check();
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = requests.map((r) => `${r.method} ${r.path} -> ${r.status}`).join(', ') || 'no request';
          throw new Error(`add-on ${options.key}: ${what} not seen within ${timeoutMs} ms (requests: ${seen})`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await store.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return addonApi;
}

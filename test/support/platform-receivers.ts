import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type { BridgeKind } from '@app/contracts';
import { eventually } from './common';

/**
 * A local stand-in for each chat platform's incoming-webhook endpoint, answering as the
 * platform documents it (statuses, bodies, rate-limit headers), so that the bridges are
 * tested against what they will meet. Each platform's rules name the page they follow.
 *
 * One server serves every platform under its own path prefix (`/slack/...`, `/discord/...`,
 * `/_matrix/...` for Matrix, whose bridge URL is the homeserver's base URL).
 */

export interface ReceivedPost {
  kind: BridgeKind;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body. */
  body: any;
  /** The raw bytes' length. */
  bytes: number;
  at: number;
}

/** A token bucket: `perSecond` posts a second on average, `burst` at once. */
export interface PostingLimit {
  perSecond: number;
  burst: number;
}

export interface ReceiverOptions {
  /** Rate limits per platform (per webhook path); absent: none. */
  limits?: Partial<Record<BridgeKind, PostingLimit>>;
  /** Paths answered as a deleted or revoked webhook (the platform's "never again" answer). */
  gone?: string[];
  /** Paths answered 5xx this many times before answering normally (a platform outage). */
  failFirst?: Record<string, number>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class PlatformReceivers {
  readonly posts: ReceivedPost[] = [];
  /** Requests refused for the rate limit (429), per platform. */
  readonly throttled: Record<string, number> = {};
  private readonly buckets = new Map<string, Bucket>();
  /** Matrix: an event id per (access token, transaction id), as a homeserver keeps them. */
  private readonly matrixTxns = new Map<string, string>();
  private readonly failures = new Map<string, number>();
  private server!: Server;
  baseUrl = '';

  constructor(private readonly options: ReceiverOptions = {}) {
    for (const [path, n] of Object.entries(options.failFirst ?? {})) this.failures.set(path, n);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The incoming-webhook URL of a channel of a platform (Matrix: the homeserver's base URL). */
  urlOf(kind: BridgeKind, channel = 'general'): string {
    return kind === 'matrix' ? `${this.baseUrl}/matrix-${channel}` : `${this.baseUrl}/${kind}/${channel}`;
  }

  postsTo(kind: BridgeKind, channel?: string): ReceivedPost[] {
    return this.posts.filter((p) => p.kind === kind && (channel === undefined || p.path.includes(kind === 'matrix' ? `/matrix-${channel}/` : `/${kind}/${channel}`)));
  }

  /** Waits until `check` holds for the posts to a platform. */
  waitFor(kind: BridgeKind, check: (posts: ReceivedPost[]) => boolean, timeoutMs = 20_000): Promise<ReceivedPost[]> {
    return eventually(() => {
      const posts = this.postsTo(kind);
      if (!check(posts)) throw new Error(`${kind}: ${posts.length} posts so far`);
      return posts;
    }, timeoutMs);
  }

  private answer(req: IncomingMessage, raw: Buffer, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const kind = kindOf(path);
    if (!kind) return send(res, 404, 'text/plain', 'not found');
    let body: any;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return this.invalidBody(kind, res);
    }
    if ((this.options.gone ?? []).some((p) => path.startsWith(p))) return this.gone(kind, res);
    const failing = this.failures.get(pathKey(path));
    if (failing) {
      this.failures.set(pathKey(path), failing - 1);
      return send(res, 503, 'text/plain', 'Service Unavailable');
    }
    const limit = this.options.limits?.[kind];
    const waitMs = limit ? this.take(pathKey(path), limit) : 0;
    if (waitMs > 0) {
      this.throttled[kind] = (this.throttled[kind] ?? 0) + 1;
      return this.tooMany(kind, res, waitMs);
    }
    if (kind === 'matrix') return this.matrix(req, path, body, raw.length, res);
    this.posts.push({ kind, method: req.method ?? 'POST', path, headers: req.headers, body, bytes: raw.length, at: Date.now() });
    this.ok(kind, res, limit, this.buckets.get(pathKey(path)));
  }

  /** Takes a token from the path's bucket: 0, or how long until one is free. */
  private take(key: string, limit: PostingLimit): number {
    const now = Date.now();
    const b = this.buckets.get(key) ?? { tokens: limit.burst, at: now };
    b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) / 1000) * limit.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / limit.perSecond) * 1000);
  }

  private ok(kind: BridgeKind, res: ServerResponse, limit?: PostingLimit, bucket?: Bucket): void {
    switch (kind) {
      // https://api.slack.com/messaging/webhooks#handling_errors: 200 with the body `ok`.
      case 'slack':
      // https://developers.mattermost.com/integrate/webhooks/incoming/: 200 `ok`.
      case 'mattermost':
        return send(res, 200, 'text/plain', 'ok');
      // https://discord.com/developers/docs/resources/webhook#execute-webhook: 204 without ?wait=true;
      // https://discord.com/developers/docs/topics/rate-limits#header-format: every answer carries the bucket's state.
      case 'discord': {
        const headers: Record<string, string> = limit ? {
          'X-RateLimit-Limit': String(limit.burst),
          'X-RateLimit-Remaining': String(Math.floor(bucket?.tokens ?? limit.burst)),
          'X-RateLimit-Reset-After': (1 / limit.perSecond).toFixed(3),
          'X-RateLimit-Bucket': 'webhook',
        } : {};
        res.writeHead(204, headers).end();
        return;
      }
      // https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook:
      // a connector answers 200 with the body `1`; a Workflows webhook 202.
      case 'teams':
        return send(res, 200, 'text/plain', '1');
      // https://developer.rocket.chat/docs/integrations (incoming): 200 {"success": true}.
      case 'rocketchat':
        return send(res, 200, 'application/json', JSON.stringify({ success: true }));
      // https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/create: the Message created.
      case 'googlechat':
        return send(res, 200, 'application/json', JSON.stringify({ name: `spaces/AAAA/messages/${this.posts.length}`, createTime: new Date().toISOString() }));
      default:
        return send(res, 200, 'text/plain', 'ok');
    }
  }

  private tooMany(kind: BridgeKind, res: ServerResponse, waitMs: number): void {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    switch (kind) {
      // https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit: JSON with `retry_after` in seconds.
      case 'discord':
        res.writeHead(429, {
          'Content-Type': 'application/json', 'Retry-After': String(seconds),
          'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset-After': (waitMs / 1000).toFixed(3), 'X-RateLimit-Scope': 'user',
        }).end(JSON.stringify({ message: 'You are being rate limited.', retry_after: waitMs / 1000, global: false }));
        return;
      // https://spec.matrix.org/v1.11/client-server-api/#rate-limiting: M_LIMIT_EXCEEDED with retry_after_ms.
      case 'matrix':
        return send(res, 429, 'application/json', JSON.stringify({ errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: waitMs }));
      // https://developers.google.com/workspace/chat/limits: 429 RESOURCE_EXHAUSTED.
      case 'googlechat':
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': String(seconds) })
          .end(JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }));
        return;
      // https://api.slack.com/docs/rate-limits#rate-limits__responses: 429 with Retry-After (seconds).
      default:
        res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': String(seconds) }).end('rate_limited');
    }
  }

  /** The platform's answer for a webhook that was deleted or revoked. */
  private gone(kind: BridgeKind, res: ServerResponse): void {
    switch (kind) {
      // https://api.slack.com/messaging/webhooks#handling_errors
      case 'slack':
        return send(res, 404, 'text/plain', 'no_service');
      // https://discord.com/developers/docs/topics/opcodes-and-status-codes#json: 10015 Unknown Webhook.
      case 'discord':
        return send(res, 404, 'application/json', JSON.stringify({ message: 'Unknown Webhook', code: 10015 }));
      case 'mattermost':
        return send(res, 400, 'application/json', JSON.stringify({ id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 }));
      case 'rocketchat':
        return send(res, 404, 'application/json', JSON.stringify({ success: false, error: 'Invalid integration id or token provided.' }));
      case 'teams':
        return send(res, 404, 'text/plain', 'Webhook not found');
      case 'googlechat':
        return send(res, 404, 'application/json', JSON.stringify({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } }));
      // https://spec.matrix.org/v1.11/client-server-api/#standard-error-response
      case 'matrix':
        return send(res, 403, 'application/json', JSON.stringify({ errcode: 'M_FORBIDDEN', error: 'User @bot:example.org not in room' }));
    }
  }

  private invalidBody(kind: BridgeKind, res: ServerResponse): void {
    if (kind === 'slack') return send(res, 400, 'text/plain', 'invalid_payload');
    if (kind === 'matrix') return send(res, 400, 'application/json', JSON.stringify({ errcode: 'M_NOT_JSON', error: 'Content not JSON.' }));
    return send(res, 400, 'application/json', JSON.stringify({ message: 'Cannot parse the body' }));
  }

  /**
   * https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid:
   * PUT with a bearer token; the same transaction id from the same token gives the same event
   * (the request is idempotent), so a retried post is shown once.
   */
  private matrix(req: IncomingMessage, path: string, body: any, bytes: number, res: ServerResponse): void {
    const m = /^\/matrix-[^/]+\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(path);
    if (req.method !== 'PUT' || !m) return send(res, 404, 'application/json', JSON.stringify({ errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' }));
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) return send(res, 401, 'application/json', JSON.stringify({ errcode: 'M_MISSING_TOKEN', error: 'Missing access token' }));
    const txn = `${auth}:${decodeURIComponent(m[2])}`;
    let eventId = this.matrixTxns.get(txn);
    if (!eventId) {
      eventId = `$event${this.matrixTxns.size + 1}`;
      this.matrixTxns.set(txn, eventId);
      this.posts.push({ kind: 'matrix', method: 'PUT', path, headers: req.headers, body, bytes, at: Date.now() });
    }
    send(res, 200, 'application/json', JSON.stringify({ event_id: eventId }));
  }
}

function kindOf(path: string): BridgeKind | null {
  if (path.startsWith('/matrix-')) return 'matrix';
  const first = path.split('/')[1] as BridgeKind;
  return ['slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat'].includes(first) ? first : null;
}

/** A webhook's own bucket (a platform limits each webhook, not each platform). */
function pathKey(path: string): string {
  return path.startsWith('/matrix-') ? path.split('/_matrix/')[0] : path;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type }).end(body);
}

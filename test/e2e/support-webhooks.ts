/**
 * A webhook receiver for the end-to-end webhook suite: a plain node:http server that answers
 * each path as its route says (204 when no route is set) and keeps every request it got.
 * It listens on 127.0.0.2 by default: the suite opens only that address to the dispatcher
 * (WEBHOOK_ALLOWED_NETWORKS=127.0.0.2/32), so a receiver on 127.0.0.1 stands for a loopback
 * service that nobody opened.
 */
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, as it arrived. */
export interface Hit {
  method: string;
  path: string;
  /** The request target, query string included. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body's exact text: Standard Webhooks signatures cover these bytes. */
  body: string;
  /** The body parsed, or undefined when it is not JSON. */
  json: any;
  /** Date.now() when the request line arrived (before the body was read), for retry timing. */
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** How a path answers its n-th request (n counts from 1). */
export type Route = (hit: Hit, n: number) => Answer;

export class Receiver {
  readonly hits: Hit[] = [];
  private readonly routes = new Map<string, Route>();
  private readonly counts = new Map<string, number>();

  private constructor(private readonly server: Server, readonly base: string) {}

  static async start(host = '127.0.0.2'): Promise<Receiver> {
    let receiver!: Receiver;
    const server = createServer((req, res) => void receiver.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    receiver = new Receiver(server, `http://${host}:${port}`);
    return receiver;
  }

  /** Sets how `path` answers; returns its full URL. */
  route(path: string, answer: Route | Answer): string {
    this.routes.set(path, typeof answer === 'function' ? answer : () => answer);
    return `${this.base}${path}`;
  }

  /** The requests to `path` (query string ignored), in arrival order. */
  to(path: string, method?: string): Hit[] {
    return this.hits.filter((h) => h.path === path && (method === undefined || h.method === method));
  }

  /** Polls until `find` returns something, and returns it; the failure names what was awaited and what came. */
  async waitFor<T>(what: string, find: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found) return found;
      if (Date.now() > deadline) {
        const seen = this.hits.map((h) => `${h.method} ${h.path}${h.json?.event ? ` (${h.json.event})` : ''}`);
        throw new Error(`${this.base}: no ${what} within ${timeoutMs} ms; got ${seen.length ? seen.join(', ') : 'nothing'}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: any;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    const hit: Hit = { method: req.method ?? '', path, url, headers: req.headers, body, json, at };
    this.hits.push(hit);
    const n = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, n);
    const route: Route = this.routes.get(path) ?? (() => ({ status: 204 }));
    const answer = route(hit, n);
    res.writeHead(answer.status, answer.headers ?? (answer.body ? { 'content-type': 'application/json' } : {}));
    res.end(answer.body ?? '');
  }
}

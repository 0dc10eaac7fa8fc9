import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  /** The request target, query string included. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the body was read. */
  at: number;
}

/** How a path answers: status, headers and body, after an optional wait. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; hang?: boolean };
type Route = (request: Received, count: number) => Answer;

/**
 * A webhook receiver on 127.0.0.1: each path answers as its route says (204 by default) and
 * every request is kept. A `hang` answer holds the request until `release()`.
 */
export class Receiver {
  readonly requests: Received[] = [];
  private readonly routes = new Map<string, Route>();
  private readonly held: ServerResponse[] = [];
  private readonly counts = new Map<string, number>();

  private constructor(private readonly server: Server, readonly base: string) {}

  static async start(): Promise<Receiver> {
    let receiver!: Receiver;
    const server = createServer((req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new Receiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  /** What `path` answers (its n-th request counts from 1). */
  route(path: string, route: Route | Answer): string {
    this.routes.set(path, typeof route === 'function' ? route : () => route);
    return `${this.base}${path}`;
  }

  /** The requests to a path. */
  to(path: string): Received[] {
    return this.requests.filter((r) => r.path === path.split('?')[0]);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const received: Received = { path, url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      this.requests.push(received);
      const count = (this.counts.get(path) ?? 0) + 1;
      this.counts.set(path, count);
      const route: Route = this.routes.get(path) ?? (() => ({ status: 204 }));
      const answer = route(received, count);
      if (answer.hang) {
        this.held.push(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? (answer.body ? { 'content-type': 'application/json' } : {}));
      res.end(answer.body ?? '');
    });
  }

  /** Answers every held request (204). */
  release(): void {
    for (const res of this.held.splice(0)) {
      if (!res.writableEnded) res.writeHead(204).end();
    }
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

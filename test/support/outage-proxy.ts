import { createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of a real server (the broker, the database) that a test can take
 * down: `outage(ms)` closes every connection through it and refuses new ones for that
 * long, as a broker that went away would look to the services (their sockets drop, their
 * reconnects fail), then lets them connect again. The server behind it keeps its state:
 * queues and messages survive, as on a broker restart with durable queues.
 */
export class OutageProxy {
  private readonly sockets = new Set<Socket>();
  /** Each connection's two sockets: the client's and the server's. */
  private readonly pairs = new Set<[Socket, Socket]>();
  private down = false;
  private upTimer?: NodeJS.Timeout;

  private constructor(private readonly server: Server, readonly port: number) {}

  /** Listens on a free port of 127.0.0.1, forwarding to `target` (host:port). */
  static async start(target: { host: string; port: number }): Promise<OutageProxy> {
    let proxy: OutageProxy | undefined;
    const server = createServer((client) => proxy!.accept(client, target));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy = new OutageProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** `url` (amqp://, postgres://) pointed at this proxy instead of its own host and port. */
  rewrite(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Whether connections are refused now. */
  get isDown(): boolean {
    return this.down;
  }

  /** Drops every connection now and refuses new ones for `ms`. */
  outage(ms: number): void {
    this.down = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    clearTimeout(this.upTimer);
    this.upTimer = setTimeout(() => {
      this.down = false;
    }, ms);
  }

  /**
   * Stops passing what the servers send to the clients (requests still go through), so that
   * what a client writes now is taken but never answered: a broker's confirms in flight when it
   * went away. Until the next outage, which drops these connections.
   */
  freeze(): void {
    for (const [client, upstream] of this.pairs) {
      upstream.unpipe(client);
      upstream.pause();
    }
  }

  /** Resolves when the outage in progress (if any) is over. */
  async restored(): Promise<void> {
    while (this.down) await new Promise((r) => setTimeout(r, 20));
  }

  async close(): Promise<void> {
    clearTimeout(this.upTimer);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    if (this.down) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    for (const s of pair) {
      this.sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        this.pairs.delete(pair);
        for (const other of pair) if (other !== s) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

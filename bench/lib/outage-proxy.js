// A TCP proxy in front of the broker that a scenario can take down: the bench's (plain
// JavaScript) counterpart of test/support/outage-proxy.ts, with the same behaviour and API.
// `outage(ms)` closes every connection through it and refuses new ones for that long, as a
// broker that went away would look to the services; the broker behind keeps its queues.
const net = require('node:net');

class OutageProxy {
  constructor(server, port) {
    this.server = server;
    this.port = port;
    this.sockets = new Set();
    this.down = false;
    this.upTimer = undefined;
  }

  /** Listens on a free port of 127.0.0.1, forwarding to `target` ({ host, port }). */
  static async start(target) {
    let proxy;
    const server = net.createServer((client) => proxy.accept(client, target));
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    proxy = new OutageProxy(server, server.address().port);
    return proxy;
  }

  /** `url` (amqp://) pointed at this proxy instead of its own host and port. */
  rewrite(url) {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  get isDown() {
    return this.down;
  }

  /** Drops every connection now and refuses new ones for `ms`. */
  outage(ms) {
    this.down = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    clearTimeout(this.upTimer);
    this.upTimer = setTimeout(() => {
      this.down = false;
    }, ms);
  }

  /** Resolves when the outage in progress (if any) is over. */
  async restored() {
    while (this.down) await new Promise((r) => setTimeout(r, 20));
  }

  async close() {
    clearTimeout(this.upTimer);
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(() => resolve()));
  }

  accept(client, target) {
    if (this.down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = [client, upstream];
    for (const s of pair) {
      this.sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        for (const other of pair) if (other !== s) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

module.exports = { OutageProxy };

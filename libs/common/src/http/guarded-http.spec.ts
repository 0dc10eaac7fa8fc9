import * as http from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { GuardedHttpClient, HTTPS_REQUIRED, OutboundFailure, OutboundRequest } from './guarded-http';

/** A real receiver on 127.0.0.1 (opened to the client through allowedNetworks). */
interface Receiver {
  port: number;
  base: string;
  hits: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }>;
  connections: number;
  close(): Promise<void>;
}

async function startReceiver(handle: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver = { hits: [], connections: 0 } as unknown as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      receiver.hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.base = `http://127.0.0.1:${receiver.port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}

async function failureOf(promise: Promise<unknown>): Promise<OutboundFailure> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundFailure);
    return err as OutboundFailure;
  }
  throw new Error('expected the request to fail');
}

const LOCAL = ['127.0.0.0/8'];

describe('GuardedHttpClient', () => {
  const clients: GuardedHttpClient[] = [];
  const receivers: Receiver[] = [];
  const client = (options: ConstructorParameters<typeof GuardedHttpClient>[0] = {}) => {
    const c = new GuardedHttpClient(options);
    clients.push(c);
    return c;
  };
  const receiver = async (handle: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(handle);
    receivers.push(r);
    return r;
  };

  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  describe('answers', () => {
    it('returns a 200 with its body and headers, and sends the caller bytes untouched', async () => {
      const r = await receiver((req, res, body) => {
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.end(JSON.stringify({ got: body.toString('utf8') }));
      });
      const payload = '  {"event":"room_message"}\n';
      const res = await client({ allowedNetworks: LOCAL, userAgent: 'test-agent/1' }).request({
        method: 'POST',
        url: `${r.base}/hook?token=abc`,
        headers: { 'Content-Type': 'application/json', 'Webhook-Id': 'msg_1' },
        body: payload,
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ got: payload });
      expect(res.truncated).toBe(false);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['set-cookie']).toBe('a=1, b=2');
      expect(res.durationMs).toBeGreaterThanOrEqual(0);
      const hit = r.hits[0];
      expect(hit.method).toBe('POST');
      expect(hit.url).toBe('/hook?token=abc');
      expect(hit.headers['user-agent']).toBe('test-agent/1');
      expect(hit.headers['webhook-id']).toBe('msg_1');
      expect(hit.headers['content-length']).toBe(String(Buffer.byteLength(payload)));
      expect(hit.body.toString('utf8')).toBe(payload);
    });

    it('reuses one connection without setting its TCP keep-alive again per request', async () => {
      const r = await receiver((_req, res) => res.end('ok'));
      const c = client({ allowedNetworks: LOCAL });
      // Socket caches the keep-alive it set: only a different delay reaches the system (setsockopt).
      const delays: number[] = [];
      const spy = jest.spyOn(Socket.prototype, 'setKeepAlive').mockImplementation(function (this: Socket, enable?: boolean, delay?: number) {
        delays.push(enable ? delay ?? 0 : -1);
        return this;
      });
      try {
        for (let i = 0; i < 5; i++) expect((await c.request({ method: 'POST', url: `${r.base}/hook`, body: '{}' })).status).toBe(200);
      } finally {
        spy.mockRestore();
      }
      expect(r.connections).toBe(1);
      expect(delays.length).toBeGreaterThan(0);
      expect(new Set(delays).size).toBe(1);
    });

    it('sends a Buffer body and the other methods', async () => {
      const r = await receiver((req, res, body) => res.end(`${req.method} ${body.length}`));
      const c = client({ allowedNetworks: LOCAL });
      const put = await c.request({ method: 'PUT', url: `${r.base}/x`, body: Buffer.from([1, 2, 3]) });
      expect(put.body).toBe('PUT 3');
      const del = await c.request({ method: 'DELETE', url: `${r.base}/x/oauth-id` });
      expect(del.body).toBe('DELETE 0');
      const get = await c.request({ method: 'GET', url: `${r.base}/descriptor.json` });
      expect(get.body).toBe('GET 0');
    });

    it('returns a 500 rather than throwing', async () => {
      const r = await receiver((_req, res) => {
        res.statusCode = 500;
        res.end('boom');
      });
      const res = await client({ allowedNetworks: LOCAL }).request({ method: 'POST', url: `${r.base}/hook`, body: '{}' });
      expect(res.status).toBe(500);
      expect(res.body).toBe('boom');
    });

    it('returns a 302 as the answer without following it', async () => {
      const r = await receiver((req, res) => {
        if (req.url === '/hook') {
          res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' });
          res.end();
        } else {
          res.end('followed');
        }
      });
      const res = await client({ allowedNetworks: LOCAL }).request({ method: 'POST', url: `${r.base}/hook`, body: '{}' });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('http://169.254.169.254/latest/meta-data/');
      expect(r.hits.map((h) => h.url)).toEqual(['/hook']);
    });

    it('does not follow a redirect to a path of the same receiver either', async () => {
      const r = await receiver((req, res) => {
        if (req.url === '/a') {
          res.writeHead(307, { Location: '/b' });
          res.end();
        } else res.end('b');
      });
      const res = await client({ allowedNetworks: LOCAL }).request({ method: 'GET', url: `${r.base}/a` });
      expect(res.status).toBe(307);
      expect(res.headers.location).toBe('/b');
      expect(r.hits).toHaveLength(1);
    });
  });

  describe('response size', () => {
    it('cuts a body over the limit and says so, without reading the rest', async () => {
      let written = 0;
      // An endless body: the client must stop reading, not buffer until the sender stops.
      const r = await receiver((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      });
      const res = await client({ allowedNetworks: LOCAL, maxResponseBytes: 1000 }).request({ method: 'GET', url: r.base });
      expect(res.status).toBe(200);
      expect(res.truncated).toBe(true);
      expect(res.body).toBe('x'.repeat(1000));
      expect(written).toBeLessThan(50 * 1024 * 1024);
    });

    it('reads a body of exactly the limit whole', async () => {
      const r = await receiver((_req, res) => res.end('y'.repeat(1000)));
      const res = await client({ allowedNetworks: LOCAL, maxResponseBytes: 1000 }).request({ method: 'GET', url: r.base });
      expect(res.body).toHaveLength(1000);
      expect(res.truncated).toBe(false);
    });

    it('defaults to 64 KiB', async () => {
      const r = await receiver((_req, res) => res.end('z'.repeat(70_000)));
      const res = await client({ allowedNetworks: LOCAL }).request({ method: 'GET', url: r.base });
      expect(res.body).toHaveLength(64 * 1024);
      expect(res.truncated).toBe(true);
    });
  });

  describe('time limit', () => {
    it('fails with timeout when the receiver does not answer in time', async () => {
      const r = await receiver(() => undefined); // never answers
      const started = Date.now();
      const failure = await failureOf(
        client({ allowedNetworks: LOCAL, timeoutMs: 300 }).request({ method: 'POST', url: `${r.base}/slow?token=s3cret`, body: '{}' }),
      );
      const took = Date.now() - started;
      expect(failure.kind).toBe('timeout');
      expect(failure.durationMs).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(1500);
      expect(failure.message).toContain(`127.0.0.1:${r.port}`);
      expect(failure.message).not.toContain('s3cret');
    });

    it('counts the body into the limit (a receiver dripping its answer)', async () => {
      const r = await receiver((_req, res) => {
        res.writeHead(200);
        res.write('partial'); // and never ends
      });
      const failure = await failureOf(
        client({ allowedNetworks: LOCAL, timeoutMs: 300 }).request({ method: 'GET', url: r.base }),
      );
      expect(failure.kind).toBe('timeout');
      expect(failure.durationMs).toBeLessThan(1500);
    });

    it('takes a per-request limit over the client default', async () => {
      const r = await receiver(() => undefined);
      const failure = await failureOf(
        client({ allowedNetworks: LOCAL, timeoutMs: 30_000 }).request({ method: 'GET', url: r.base, timeoutMs: 200 }),
      );
      expect(failure.kind).toBe('timeout');
      expect(failure.durationMs).toBeLessThan(1500);
    });
  });

  describe('address checks', () => {
    it('refuses loopback without the allow-list, before connecting', async () => {
      const r = await receiver((_req, res) => res.end('reached'));
      const failure = await failureOf(client().request({ method: 'POST', url: `${r.base}/hook?token=s3cret`, body: '{}' }));
      expect(failure.kind).toBe('refused');
      expect(failure.message).toBe('127.0.0.1 is a loopback address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)');
      expect(r.connections).toBe(0);
    });

    it('refuses "localhost" through the real resolver at connect time', async () => {
      const r = await receiver((_req, res) => res.end('reached'));
      const failure = await failureOf(client().request({ method: 'GET', url: `http://localhost:${r.port}/` }));
      expect(failure.kind).toBe('refused');
      expect(failure.message).toMatch(/^localhost: (127\.0\.0\.1|::1) is a loopback address; refused/);
      expect(r.connections).toBe(0);
    });

    it('refuses a name that resolves to the cloud metadata address', async () => {
      const resolve = jest.fn(async () => [{ address: '169.254.169.254', family: 4 as const }]);
      const failure = await failureOf(
        client({ resolve }).request({ method: 'GET', url: 'http://metadata.attacker.test/latest/meta-data/?token=s3cret' }),
      );
      expect(resolve).toHaveBeenCalledWith('metadata.attacker.test');
      expect(failure.kind).toBe('refused');
      expect(failure.message).toBe('metadata.attacker.test: 169.254.169.254 is a cloud metadata address; refused');
      expect(failure.message).not.toContain('s3cret');
    });

    it('connects to the address the check passed (the resolver decides where the socket goes)', async () => {
      const r = await receiver((req, res) => res.end(`host=${req.headers.host}`));
      const resolve = jest.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
      const res = await client({ allowedNetworks: LOCAL, resolve }).request({
        method: 'GET',
        url: `http://receiver.example.test:${r.port}/`,
      });
      expect(res.body).toBe(`host=receiver.example.test:${r.port}`);
      expect(resolve).toHaveBeenCalledTimes(1);
    });

    it('checks every connect: a name that rebinds to a private address is refused at the next connect', async () => {
      // Connection: close makes the second request open a new connection, so resolve again.
      const r = await receiver((_req, res) => {
        res.setHeader('Connection', 'close');
        res.end('ok');
      });
      const answers = [
        [{ address: '127.0.0.1', family: 4 as const }], // "public" here: opened by allowedNetworks
        [{ address: '10.0.0.7', family: 4 as const }],
      ];
      const resolve = jest.fn(async () => answers.shift() ?? []);
      const c = client({ allowedNetworks: LOCAL, resolve });
      const first = await c.request({ method: 'GET', url: `http://rebind.attacker.test:${r.port}/` });
      expect(first.body).toBe('ok');
      const failure = await failureOf(c.request({ method: 'GET', url: `http://rebind.attacker.test:${r.port}/` }));
      expect(resolve).toHaveBeenCalledTimes(2);
      expect(failure.kind).toBe('refused');
      expect(failure.message).toBe(
        'rebind.attacker.test: 10.0.0.7 is a private address; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)',
      );
      expect(r.hits).toHaveLength(1);
    });

    it('refuses an answer holding a public and a private address as a whole', async () => {
      const r = await receiver((_req, res) => res.end('reached'));
      const resolve = async () => [
        { address: '127.0.0.1', family: 4 as const },
        { address: '169.254.169.254', family: 4 as const },
      ];
      const failure = await failureOf(
        client({ allowedNetworks: LOCAL, resolve }).request({ method: 'GET', url: `http://mixed.attacker.test:${r.port}/` }),
      );
      expect(failure.kind).toBe('refused');
      expect(failure.message).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
      expect(r.connections).toBe(0);
    });

    it('checks https connections the same way', async () => {
      const resolve = jest.fn(async () => [{ address: '169.254.169.254', family: 4 as const }]);
      const failure = await failureOf(client({ resolve }).request({ method: 'POST', url: 'https://hooks.attacker.test/x', body: '{}' }));
      expect(resolve).toHaveBeenCalledWith('hooks.attacker.test');
      expect(failure.kind).toBe('refused');
      expect(failure.message).toContain('169.254.169.254 is a cloud metadata address');
    });

    it.each([
      ['http://[::1]:8080/hook', '::1 is a loopback address'],
      ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1 (stands for 127.0.0.1) is a loopback address'],
      ['http://10.1.2.3/hook', '10.1.2.3 is a private address'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      ['https://[fd00:ec2::254]/', 'fd00:ec2::254 is a cloud metadata address'],
      ['http://0.0.0.0:80/', '0.0.0.0 is an unspecified address'],
      ['http://0x7f000001/', '127.0.0.1 is a loopback address'], // the URL parser's normal form
    ])('refuses the IP literal in %s without resolving or connecting', async (url, message) => {
      const resolve = jest.fn(async () => [{ address: '93.184.216.34', family: 4 as const }]);
      const failure = await failureOf(client({ resolve }).request({ method: 'GET', url }));
      expect(failure.kind).toBe('refused');
      expect(failure.message).toContain(message);
      expect(resolve).not.toHaveBeenCalled();
    });

    // Every address that is not global unicast, in every spelling: as the URL's host (checked
    // before connecting) and as what a name resolves to (checked at connect time).
    const NOT_GLOBAL: Array<[string, string]> = [
      ['0.0.0.1', 'an unspecified address'],
      ['10.0.0.1', 'a private address'],
      ['100.64.0.1', 'a carrier-grade NAT address'],
      ['127.0.0.1', 'a loopback address'],
      ['169.254.0.1', 'a link-local address'],
      ['172.16.0.1', 'a private address'],
      ['192.0.0.1', 'an IETF protocol assignment address'],
      ['192.0.2.1', 'a documentation address'],
      ['192.168.0.1', 'a private address'],
      ['198.18.0.1', 'a benchmarking address'],
      ['198.51.100.1', 'a documentation address'],
      ['203.0.113.1', 'a documentation address'],
      ['224.0.0.1', 'a multicast address'],
      ['240.0.0.1', 'a reserved (future use) address'],
      ['255.255.255.255', 'a broadcast address'],
      ['::', 'an unspecified address'],
      ['::1', 'a loopback address'],
      ['::ffff:10.0.0.1', '(stands for 10.0.0.1) is a private address'],
      ['::ffff:a00:1', '(stands for 10.0.0.1) is a private address'],
      ['::10.0.0.1', '(stands for 10.0.0.1) is a private address'],
      ['::a00:1', '(stands for 10.0.0.1) is a private address'],
      ['::ffff:0:10.0.0.1', '(stands for 10.0.0.1) is a private address'],
      ['64:ff9b::10.0.0.1', '(stands for 10.0.0.1) is a private address'],
      ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
      ['2002:a00:1::1', '(stands for 10.0.0.1) is a private address'],
      ['2001::1', 'a Teredo address'],
      ['fc00::1', 'a unique-local address'],
      ['fe80::1', 'a link-local address'],
      ['fec0::1', 'a site-local address'],
      ['ff02::1', 'a multicast address'],
      ['2001:db8::1', 'a documentation address'],
      ['100::1', 'a discard-only address'],
      ['4000::1', 'outside global unicast (2000::/3)'],
    ];

    it.each(NOT_GLOBAL)('refuses %s as the URL\'s host, saying why, neither resolving nor connecting', async (address, why) => {
      const resolve = jest.fn(async () => [{ address: '93.184.216.34', family: 4 as const }]);
      const host = address.includes(':') ? `[${address}]` : address;
      const failure = await failureOf(client({ resolve }).request({ method: 'POST', url: `http://${host}:8080/hook/s3cret-path?token=s3cret`, body: '{}' }));
      expect([failure.kind, failure.message]).toEqual(['refused', expect.stringContaining(`${why}; refused (WEBHOOK_ALLOWED_NETWORKS opens ranges)`)]);
      expect(failure.message).not.toMatch(/s3cret|hook|8080/);
      expect(resolve).not.toHaveBeenCalled();
    });

    it.each(NOT_GLOBAL)('refuses a name resolving to %s at connect time, saying why', async (address, why) => {
      const resolve = jest.fn(async () => [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }]);
      const failure = await failureOf(client({ resolve }).request({ method: 'POST', url: 'https://hooks.attacker.test/hook?token=s3cret', body: '{}' }));
      expect(resolve).toHaveBeenCalledWith('hooks.attacker.test');
      expect([failure.kind, failure.message]).toEqual(['refused', expect.stringMatching(new RegExp(`^hooks\\.attacker\\.test: .*${why.replace(/[()/.]/g, '\\$&')}; refused`))]);
      expect(failure.message).not.toMatch(/s3cret|\/hook/);
    });

    it('refuses ::1 even when IPv4 loopback is opened', async () => {
      const failure = await failureOf(client({ allowedNetworks: LOCAL }).request({ method: 'GET', url: 'http://[::1]:1/' }));
      expect(failure.kind).toBe('refused');
    });
  });

  describe('plain http only within the allowed networks (plainHttpOnlyWithinAllowedNetworks)', () => {
    const strict = (options: ConstructorParameters<typeof GuardedHttpClient>[0] = {}) =>
      client({ allowedNetworks: ['127.0.0.2/32'], plainHttpOnlyWithinAllowedNetworks: true, ...options });

    it('sends plain http to an address inside them', async () => {
      const r = await receiver((_req, res) => res.end('ok'));
      const res = await strict({ allowedNetworks: LOCAL }).request({ method: 'POST', url: `${r.base}/cb`, body: '{}' });
      expect(res.body).toBe('ok');
    });

    it('refuses plain http to an IP literal outside them before connecting, saying https is required', async () => {
      const r = await receiver((_req, res) => res.end('reached'));
      const c = strict({ resolve: async () => [] });
      const failure = await failureOf(c.request({ method: 'POST', url: `http://8.8.8.8:${r.port}/cb?secret=s3cret`, body: '{"oauthSecret":"s3cret"}' }));
      expect([failure.kind, failure.code, failure.message]).toEqual([
        'refused', HTTPS_REQUIRED, 'must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and 8.8.8.8 is not in them',
      ]);
      expect(r.connections).toBe(0);
    });

    it('refuses plain http to a name resolving outside them at connect time; https to it passes the guard', async () => {
      const resolve = jest.fn(async () => [{ address: '93.184.216.34', family: 4 as const }]);
      const c = strict({ resolve, timeoutMs: 300 });
      const failure = await failureOf(c.request({ method: 'POST', url: 'http://addon.example.test/cb?secret=s3cret', body: '{}' }));
      expect([failure.kind, failure.code, failure.message]).toEqual([
        'refused', HTTPS_REQUIRED, 'must be https: plain http is only for addresses in WEBHOOK_ALLOWED_NETWORKS, and addon.example.test (93.184.216.34) is not in them',
      ]);
      expect(await c.refusalOf('http://addon.example.test/cb')).toMatchObject({ kind: 'refused', code: HTTPS_REQUIRED });
      expect(await c.refusalOf('https://addon.example.test/cb')).toBeNull();
    });

    it('still refuses what the address guard refuses, with the guard\'s reason', async () => {
      const c = strict();
      expect(await c.refusalOf('http://10.0.0.1/cb')).toMatchObject({ kind: 'refused', code: undefined, message: expect.stringMatching(/private address/) });
      expect(await c.refusalOf('https://[::a00:1]/cb')).toMatchObject({ kind: 'refused', message: expect.stringMatching(/stands for 10\.0\.0\.1/) });
      expect(await c.refusalOf('ftp://x.example/cb')).toMatchObject({ kind: 'invalid_url' });
    });

    it('leaves plain http anywhere the guard allows when off (webhook deliveries)', async () => {
      const c = client({ resolve: async () => [{ address: '93.184.216.34', family: 4 as const }] });
      expect(await c.refusalOf('http://addon.example.test/cb')).toBeNull();
      expect(await c.refusalOf('http://8.8.8.8/cb')).toBeNull();
    });
  });

  describe('URLs', () => {
    it.each([
      ['ftp://example.com/file', 'scheme "ftp:" is not allowed (http and https only)'],
      ['file:///etc/passwd', 'scheme "file:" is not allowed (http and https only)'],
      ['gopher://127.0.0.1:6379/_FLUSHALL', 'scheme "gopher:" is not allowed (http and https only)'],
      ['not a url?token=s3cret', 'not a valid absolute URL'],
      ['/relative/path', 'not a valid absolute URL'],
      ['http://user:s3cret@example.com/hook', 'credentials in the URL are not allowed (example.com)'],
    ])('fails %s as invalid_url', async (url, message) => {
      const failure = await failureOf(client().request({ method: 'GET', url }));
      expect(failure.kind).toBe('invalid_url');
      expect(failure.message).toBe(message);
      expect(failure.message).not.toContain('s3cret');
    });
  });

  describe('connection failures', () => {
    it('fails with connection when nothing listens on the port', async () => {
      const r = await receiver(() => undefined);
      const closedPort = r.port;
      await r.close();
      receivers.splice(receivers.indexOf(r), 1);
      const failure = await failureOf(
        client({ allowedNetworks: LOCAL }).request({ method: 'POST', url: `http://127.0.0.1:${closedPort}/hook?token=s3cret`, body: '{}' }),
      );
      expect(failure.kind).toBe('connection');
      expect(failure.code).toBe('ECONNREFUSED');
      expect(failure.message).toContain(`connection to 127.0.0.1:${closedPort} failed`);
      expect(failure.message).not.toContain('s3cret');
    });

    it('fails with connection when the name does not resolve', async () => {
      const resolve = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      };
      const failure = await failureOf(client({ resolve }).request({ method: 'GET', url: 'http://nowhere.test/' }));
      expect(failure.kind).toBe('connection');
      expect(failure.code).toBe('ENOTFOUND');
    });

    it('fails with connection when the receiver hangs up mid-answer', async () => {
      const r = await receiver((req, res) => {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('short');
        req.socket.destroy();
      });
      const failure = await failureOf(client({ allowedNetworks: LOCAL }).request({ method: 'GET', url: r.base }));
      expect(failure.kind).toBe('connection');
    });
  });

  describe('connections', () => {
    it('keeps a connection alive for the next request to the same receiver', async () => {
      const r = await receiver((_req, res) => res.end('ok'));
      const resolve = jest.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
      const c = client({ allowedNetworks: LOCAL, resolve });
      const request: OutboundRequest = { method: 'POST', url: `http://keepalive.test:${r.port}/hook`, body: '{}' };
      await c.request(request);
      await c.request(request);
      expect(r.hits).toHaveLength(2);
      expect(r.connections).toBe(1);
      expect(resolve).toHaveBeenCalledTimes(1);
    });

    it('does not hold other requests behind a receiver that hangs', async () => {
      const r = await receiver((req, res) => {
        if (req.url !== '/hang') res.end('quick');
      });
      const c = client({ allowedNetworks: LOCAL, timeoutMs: 1500 });
      const hanging = failureOf(c.request({ method: 'POST', url: `${r.base}/hang`, body: '{}' }));
      const started = Date.now();
      const quick = await Promise.all([1, 2, 3].map(() => c.request({ method: 'POST', url: `${r.base}/ok`, body: '{}' })));
      expect(quick.map((q) => q.body)).toEqual(['quick', 'quick', 'quick']);
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await hanging).kind).toBe('timeout');
    });

    it('does not reuse a connection it cut short', async () => {
      const r = await receiver((_req, res) => res.end('w'.repeat(10_000)));
      const c = client({ allowedNetworks: LOCAL, maxResponseBytes: 10 });
      expect((await c.request({ method: 'GET', url: r.base })).truncated).toBe(true);
      expect((await c.request({ method: 'GET', url: r.base })).truncated).toBe(true);
      expect(r.connections).toBe(2);
    });

    it('ignores proxies named in the environment', async () => {
      const proxy = await receiver((_req, res) => res.end('via proxy'));
      const r = await receiver((_req, res) => res.end('direct'));
      const saved = { http: process.env.HTTP_PROXY, lower: process.env.http_proxy, no: process.env.NO_PROXY };
      process.env.HTTP_PROXY = proxy.base;
      process.env.http_proxy = proxy.base;
      delete process.env.NO_PROXY;
      try {
        const res = await client({ allowedNetworks: LOCAL }).request({ method: 'GET', url: r.base });
        expect(res.body).toBe('direct');
        expect(proxy.hits).toHaveLength(0);
      } finally {
        restore('HTTP_PROXY', saved.http);
        restore('http_proxy', saved.lower);
        restore('NO_PROXY', saved.no);
      }
    });
  });
});

function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

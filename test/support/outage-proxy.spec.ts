import { connect, createServer, Server, Socket } from 'node:net';
import { OutageProxy } from './outage-proxy';

/** An echo server: what a client writes comes back. */
async function echoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

/** Connects and writes `text`; answers what came back, or the error that ended the connection. */
function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const s: Socket = connect(port, '127.0.0.1', () => s.write(text));
    s.once('data', (d) => {
      resolve(d.toString());
      s.destroy();
    });
    s.once('error', (e) => resolve(`error: ${e.message}`));
    s.once('close', () => resolve('closed'));
  });
}

describe('OutageProxy', () => {
  let echo: { server: Server; port: number };
  let proxy: OutageProxy;
  beforeEach(async () => {
    echo = await echoServer();
    proxy = await OutageProxy.start({ host: '127.0.0.1', port: echo.port });
  });
  afterEach(async () => {
    await proxy.close();
    await new Promise((r) => echo.server.close(r));
  });

  it('forwards, drops open connections and refuses new ones during an outage, then forwards again', async () => {
    expect(await roundTrip(proxy.port, 'hello')).toBe('hello');

    const open = connect(proxy.port, '127.0.0.1');
    await new Promise((r) => open.once('connect', r));
    const dropped = new Promise((r) => open.once('close', r));
    proxy.outage(300);
    await dropped;
    expect(proxy.isDown).toBe(true);
    expect(await roundTrip(proxy.port, 'during')).toBe('closed');

    await proxy.restored();
    expect(await roundTrip(proxy.port, 'after')).toBe('after');
  });

  it('rewrites a URL to go through it, keeping credentials, path and query', () => {
    expect(proxy.rewrite('amqp://guest:guest@127.0.0.1:5672/vh?heartbeat=5'))
      .toBe(`amqp://guest:guest@127.0.0.1:${proxy.port}/vh?heartbeat=5`);
  });
});

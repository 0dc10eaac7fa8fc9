// The harness every end-to-end test starts the system with: a start that cannot succeed
// fails at once with the services' own words, and a port taken between its choice and the
// gateway's bind is not a failed test but a start on another port.
import { createServer, Server, Socket } from 'node:net';
import { freePort, startTestSystem, TestSystem } from '../support/processes';

describe('the end-to-end harness (startTestSystem)', () => {
  it('fails at once, naming the reason, when a service cannot start', async () => {
    const started = Date.now();
    const failure = await startTestSystem('harness', { WEBHOOK_TIMEOUT_MS: 'soon', WEBHOOK_RETRY_SCHEDULE: 'soon' }).then(
      async (system) => {
        await system.stop();
        return null;
      },
      (err: Error) => err,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toContain('WEBHOOK_TIMEOUT_MS');
    expect(failure!.message).toMatch(/exited/);
    // Not the 30 s wait for /health.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('starts again on another port when the one it chose was taken before the gateway bound it', async () => {
    const accepted: Socket[] = [];
    const holder: Server = createServer((socket) => accepted.push(socket));
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const taken = (holder.address() as { port: number }).port;
    const offered: number[] = [];
    let system: TestSystem | undefined;
    try {
      system = await startTestSystem('harness', {}, async () => {
        const port = offered.length === 0 ? taken : await freePort();
        offered.push(port);
        return port;
      });
      expect(offered).toHaveLength(2);
      expect(system.baseUrl).toBe(`http://127.0.0.1:${offered[1]}`);
      const res = await fetch(`${system.baseUrl}/health`);
      expect(res.status).toBe(200);
    } finally {
      await system?.stop();
      // (The harness's first /health try reached the holder, which never answers: drop it.)
      for (const socket of accepted) socket.destroy();
      await new Promise((r) => holder.close(r));
    }
  });
});

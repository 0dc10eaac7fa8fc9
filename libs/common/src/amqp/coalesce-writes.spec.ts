import { createServer, Socket, AddressInfo } from 'node:net';
import { amqpSocketOf, coalesceWrites } from './coalesce-writes';

/** A loopback pair: what the client writes, as the server reads it, chunk by chunk. */
async function pair() {
  const chunks: Buffer[] = [];
  const server = createServer((s) => s.on('data', (d) => chunks.push(d)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = new Socket();
  client.setNoDelay(true);
  await new Promise<void>((r) => client.connect((server.address() as AddressInfo).port, '127.0.0.1', r));
  const close = async () => {
    client.destroy();
    await new Promise((r) => server.close(r));
  };
  return { client, chunks, close };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe('coalesceWrites', () => {
  it('sends the writes of one tick together, in order, and those of the next tick after', async () => {
    const { client, chunks, close } = await pair();
    try {
      const writev = jest.spyOn(client as unknown as { _writev: () => void }, '_writev');
      coalesceWrites(client);
      for (let i = 0; i < 10; i++) client.write(`frame${i};`);
      await new Promise((r) => setImmediate(r));
      client.write('next;');
      await settle();
      expect(Buffer.concat(chunks).toString()).toBe(`${Array.from({ length: 10 }, (_, i) => `frame${i};`).join('')}next;`);
      // Ten writes went down as one writev; the next tick's write on its own.
      expect(writev).toHaveBeenCalledTimes(1);
    } finally {
      await close();
    }
  });

  it('wraps a socket once, and leaves what is not a socket alone', async () => {
    const { client, close } = await pair();
    try {
      coalesceWrites(client);
      const wrapped = client.write;
      coalesceWrites(client);
      expect(client.write).toBe(wrapped);
      expect(() => coalesceWrites(undefined)).not.toThrow();
      expect(amqpSocketOf({ connection: { stream: client } })).toBe(client);
      expect(amqpSocketOf({ connection: {} })).toBeUndefined();
      expect(amqpSocketOf(undefined)).toBeUndefined();
    } finally {
      await close();
    }
  });
});

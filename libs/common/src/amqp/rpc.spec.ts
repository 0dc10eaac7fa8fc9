import { EventEmitter } from 'node:events';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { createLogger } from '../logging';
import { Tracing } from '../tracing';
import { RpcClient, serveCommands } from './rpc';

/** A channel of the connection's current model, answering checkQueue as told. */
function fakeChannel(check: () => Promise<{ consumerCount: number }>) {
  return Object.assign(new EventEmitter(), { checkQueue: jest.fn(check), close: jest.fn(async (): Promise<void> => undefined) });
}
const clientOn = (model: unknown) =>
  new RpcClient({ connection: model } as unknown as AmqpConnectionManager, 'rooms.commands', createLogger('test', 'silent'), 1_000, Tracing.off());

describe('RpcClient.served', () => {
  it('is false while the broker is unreachable', async () => {
    expect(await clientOn(undefined).served()).toBe(false);
  });

  it('is whether the queue has a consumer, checked on a channel of its own that it closes', async () => {
    for (const consumerCount of [1, 0]) {
      const ch = fakeChannel(async () => ({ consumerCount, queue: 'rooms.commands', messageCount: 0 }));
      expect(await clientOn({ createChannel: async () => ch }).served()).toBe(consumerCount > 0);
      expect(ch.checkQueue).toHaveBeenCalledWith('rooms.commands');
      expect(ch.close).toHaveBeenCalledTimes(1);
    }
  });

  it('is false when the queue does not exist (the broker closed the channel), or no channel opens', async () => {
    const ch = fakeChannel(async () => {
      ch.emit('error', new Error('NOT_FOUND'));
      throw new Error('NOT_FOUND');
    });
    ch.close.mockImplementation(async () => { throw new Error('Channel closed'); });
    expect(await clientOn({ createChannel: async () => ch }).served()).toBe(false);
    expect(await clientOn({ createChannel: async () => { throw new Error('connection closed'); } }).served()).toBe(false);
  });
});

describe('RpcClient.request when the connection is lost', () => {
  /**
   * A connection manager whose channel writes each request when told (`write`), and whose
   * reply consumer is the one the client's set-up registers.
   */
  function fakeBroker() {
    const manager = Object.assign(new EventEmitter(), { isConnected: () => true });
    const writes: Array<{ id: string; messageId: string; write(): void }> = [];
    let onReply: (msg: unknown) => void = () => undefined;
    const wrapper = Object.assign(new EventEmitter(), {
      waitForConnect: async () => undefined,
      close: async () => undefined,
      sendToQueue: (_queue: string, _body: Buffer, options: { correlationId: string; messageId: string }) =>
        new Promise<boolean>((resolve) => writes.push({ id: options.correlationId, messageId: options.messageId, write: () => resolve(true) })),
    });
    Object.assign(manager, {
      createChannel: ({ setup }: { setup(ch: unknown): Promise<void> }) => {
        void setup({ consume: async (_q: string, fn: (msg: unknown) => void) => void (onReply = fn) });
        return wrapper;
      },
    });
    const reply = (id: string, body: unknown) => onReply({ properties: { correlationId: id }, content: Buffer.from(JSON.stringify(body)) });
    return { manager: manager as unknown as AmqpConnectionManager, writes, reply };
  }
  const command = { pattern: 'rooms.send-notification.v1' } as never;
  const tick = () => new Promise((r) => setImmediate(r));

  it('fails a request written on the lost connection at once (its reply can never come), and keeps one not yet written', async () => {
    const { manager, writes, reply } = fakeBroker();
    const client = new RpcClient(manager, 'rooms.commands', createLogger('test', 'silent'), 60_000, Tracing.off());
    await client.start();
    const written = client.request(command, {});
    const queued = client.request(command, {});
    await tick();
    writes[0].write();
    await tick();
    manager.emit('disconnect', { err: new Error('CONNECTION_FORCED') });
    const waited = new Promise((r) => setTimeout(() => r('still waiting for the timeout'), 1_000));
    await expect(Promise.race([written, waited])).rejects.toMatchObject({ name: 'RpcFailure', kind: 'no_answer' });
    // Sent on the next connection: its reply comes on that connection's channel.
    writes[1].write();
    await tick();
    reply(writes[1].id, { ok: { sent: true } });
    await expect(queued).resolves.toEqual({ sent: true });
    await client.close();
    expect(manager.listenerCount('disconnect')).toBe(0);
  });

  it('sends a request under the command id it is given (a new one each time otherwise), its reply matched as any', async () => {
    const { manager, writes, reply } = fakeBroker();
    const client = new RpcClient(manager, 'rooms.commands', createLogger('test', 'silent'), 60_000, Tracing.off());
    await client.start();
    const first = client.request(command, {}, undefined, { commandId: '8d0e4c1a-64b1-4a57-9b52-0d7d2c8f3e11' });
    const again = client.request(command, {}, undefined, { commandId: '8d0e4c1a-64b1-4a57-9b52-0d7d2c8f3e11' });
    const plain = client.request(command, {});
    await tick();
    for (const w of writes) w.write();
    await tick();
    expect(writes.map((w) => w.messageId)).toEqual(['8d0e4c1a-64b1-4a57-9b52-0d7d2c8f3e11', '8d0e4c1a-64b1-4a57-9b52-0d7d2c8f3e11', writes[2].id]);
    // Each request waits for its own reply (correlation ids stay distinct).
    expect(new Set(writes.map((w) => w.id)).size).toBe(3);
    for (const [i, w] of writes.entries()) reply(w.id, { ok: { n: i } });
    await expect(Promise.all([first, again, plain])).resolves.toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    await client.close();
  });
});

describe('serveCommands', () => {
  it('acknowledges a command before it publishes the reply', async () => {
    const calls: string[] = [];
    let deliver: (msg: unknown) => void = () => undefined;
    const ch = {
      assertQueue: async () => ({}),
      prefetch: async () => undefined,
      consume: async (_q: string, fn: (msg: unknown) => void) => void (deliver = fn),
      ack: () => void calls.push('ack'),
      sendToQueue: (queue: string) => void calls.push(`reply to ${queue}`),
    };
    const wrapper = Object.assign(new EventEmitter(), { waitForConnect: async () => undefined });
    const manager = {
      createChannel: ({ setup }: { setup(c: unknown): Promise<void> }) => {
        void setup(ch);
        return wrapper;
      },
    } as unknown as AmqpConnectionManager;
    const answered = new Promise<void>((resolve) => {
      void serveCommands(manager, 'rooms.commands', 10, createLogger('test', 'silent'), async () => {
        setImmediate(resolve);
        return { ok: {} };
      }, 'quorum', Tracing.off());
    });
    await new Promise((r) => setImmediate(r));
    deliver({
      content: Buffer.from('{}'), fields: { redelivered: false },
      properties: { type: 'rooms.get-room.v1', messageId: 'c1', correlationId: 'c1', replyTo: 'amq.rabbitmq.reply-to.abc', headers: {} },
    });
    await answered;
    // A reply the broker cannot route may close the connection (RabbitMQ 3.10, a requester's node
    // gone): the command must be settled by then, or it comes back to crash the next connection too.
    expect(calls).toEqual(['ack', 'reply to amq.rabbitmq.reply-to.abc']);
  });
});

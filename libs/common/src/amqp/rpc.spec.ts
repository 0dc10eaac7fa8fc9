import { EventEmitter } from 'node:events';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { createLogger } from '../logging';
import { Tracing } from '../tracing';
import { COMMAND_BATCH_TYPE, readCommandBatch, REPLY_BATCH_TYPE } from './command-batch';
import { CommandMeta, RpcClient, RpcReply, serveCommands } from './rpc';

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
    /** Each message handed to the channel: the commands it carries (one, or a batch's). */
    const writes: Array<{ type: string; commands: Array<{ id: string; messageId: string; pattern: string }>; write(): void; fail(err: Error): void }> = [];
    let onReply: (msg: unknown) => void = () => undefined;
    const wrapper = Object.assign(new EventEmitter(), {
      waitForConnect: async () => undefined,
      close: async () => undefined,
      sendToQueue: (_queue: string, body: Buffer, options: { correlationId: string; messageId: string; type: string }) =>
        new Promise<boolean>((resolve, reject) => writes.push({
          type: options.type,
          commands: options.type === COMMAND_BATCH_TYPE
            ? readCommandBatch(body).map((c) => ({ id: c.correlationId, messageId: c.messageId, pattern: c.pattern }))
            : [{ id: options.correlationId, messageId: options.messageId, pattern: options.type }],
          write: () => resolve(true),
          fail: reject,
        })),
    });
    Object.assign(manager, {
      createChannel: ({ setup }: { setup(ch: unknown): Promise<void> }) => {
        void setup(Object.assign(new EventEmitter(), { consume: async (_q: string, fn: (msg: unknown) => void) => void (onReply = fn) }));
        return wrapper;
      },
    });
    const reply = (id: string, body: unknown) => onReply({ properties: { correlationId: id }, content: Buffer.from(JSON.stringify(body)) });
    const replyBatch = (replies: Array<{ correlationId: string; reply: unknown }>) =>
      onReply({ properties: { correlationId: 'batch', type: REPLY_BATCH_TYPE }, content: Buffer.from(JSON.stringify({ replies })) });
    return { manager: manager as unknown as AmqpConnectionManager, writes, reply, replyBatch };
  }
  const command = { pattern: 'rooms.send-notification.v1', query: false, alone: false } as never;
  const slow = { pattern: 'addons.install-addon.v1', query: false, alone: true } as never;
  const tick = () => new Promise((r) => setImmediate(r));

  it('fails a request written on the lost connection at once (its reply can never come), and keeps one not yet written', async () => {
    const { manager, writes, reply } = fakeBroker();
    const client = new RpcClient(manager, 'rooms.commands', createLogger('test', 'silent'), 60_000, Tracing.off());
    await client.start();
    const written = client.request(command, {});
    await tick();
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
    reply(writes[1].commands[0].id, { ok: { sent: true } });
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
    const sent = writes.flatMap((w) => w.commands);
    expect(sent.map((c) => c.messageId)).toEqual(['8d0e4c1a-64b1-4a57-9b52-0d7d2c8f3e11', '8d0e4c1a-64b1-4a57-9b52-0d7d2c8f3e11', sent[2].id]);
    // Each request waits for its own reply (correlation ids stay distinct).
    expect(new Set(sent.map((c) => c.id)).size).toBe(3);
    for (const [i, c] of sent.entries()) reply(c.id, { ok: { n: i } });
    await expect(Promise.all([first, again, plain])).resolves.toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    await client.close();
  });

  it('sends the requests of one turn of the event loop as one batch, answered by one reply batch; a slow command alone', async () => {
    const { manager, writes, replyBatch } = fakeBroker();
    const client = new RpcClient(manager, 'rooms.commands', createLogger('test', 'silent'), 60_000, Tracing.off());
    await client.start();
    const asked = [0, 1, 2].map((n) => client.request(command, { n }));
    const install = client.request(slow, {});
    await tick();
    expect(writes.map((w) => [w.type, w.commands.length])).toEqual([['addons.install-addon.v1', 1], [COMMAND_BATCH_TYPE, 3]]);
    for (const w of writes) w.write();
    await tick();
    const [one, batch] = writes;
    replyBatch([
      { correlationId: batch.commands[2].id, reply: { ok: { n: 2 } } },
      { correlationId: batch.commands[0].id, reply: { ok: { n: 0 } } },
      { correlationId: batch.commands[1].id, reply: { error: { code: 'not_found', reason: 'room', detail: {} } } },
      { correlationId: 'not-ours', reply: { ok: {} } },
    ]);
    await expect(asked[0]).resolves.toEqual({ n: 0 });
    await expect(asked[2]).resolves.toEqual({ n: 2 });
    await expect(asked[1]).rejects.toMatchObject({ name: 'RpcCommandError', error: { code: 'not_found' } });
    replyBatch([{ correlationId: one.commands[0].id, reply: { ok: { installed: true } } }]);
    await expect(install).resolves.toEqual({ installed: true });
    // A turn with one request sends it alone, as it always was.
    const alone = client.request(command, { n: 3 });
    await tick();
    expect(writes[2]).toMatchObject({ type: 'rooms.send-notification.v1', commands: [{ pattern: 'rooms.send-notification.v1' }] });
    writes[2].write();
    client.close().catch(() => undefined);
    await expect(alone).rejects.toMatchObject({ name: 'RpcFailure' });
  });

  it('fails every request of a batch the broker did not take', async () => {
    const { manager, writes } = fakeBroker();
    const client = new RpcClient(manager, 'rooms.commands', createLogger('test', 'silent'), 60_000, Tracing.off());
    await client.start();
    const asked = [0, 1].map((n) => client.request(command, { n }));
    await tick();
    expect(writes).toHaveLength(1);
    writes[0].fail(new Error('publish timed out'));
    for (const a of asked) await expect(a).rejects.toMatchObject({ name: 'RpcFailure', kind: 'no_answer', message: expect.stringContaining('publish timed out') });
    await client.close();
  });
});

/** serveCommands on a fake channel: what it acknowledged and answered, in order; `send` delivers a message. */
function fakeServer(handler: (payload: unknown, meta: CommandMeta) => Promise<RpcReply>) {
  const calls: Array<{ what: string; body?: unknown; type?: string; correlationId?: string }> = [];
  let deliver: (msg: unknown) => void = () => undefined;
  const ch = Object.assign(new EventEmitter(), {
    assertQueue: async () => ({}),
    prefetch: async () => undefined,
    consume: async (_q: string, fn: (msg: unknown) => void) => void (deliver = fn),
    ack: () => void calls.push({ what: 'ack' }),
    sendToQueue: (queue: string, body: Buffer, options: { type?: string; correlationId?: string }) =>
      void calls.push({ what: `reply to ${queue}`, body: JSON.parse(body.toString()), type: options.type, correlationId: options.correlationId }),
  });
  const wrapper = Object.assign(new EventEmitter(), { waitForConnect: async () => undefined });
  const manager = {
    createChannel: ({ setup }: { setup(c: unknown): Promise<void> }) => {
      void setup(ch);
      return wrapper;
    },
  } as unknown as AmqpConnectionManager;
  void serveCommands(manager, 'rooms.commands', 10, createLogger('test', 'silent'), handler, 'quorum', Tracing.off());
  const send = (content: string, type = COMMAND_BATCH_TYPE) => deliver({
    content: Buffer.from(content), fields: { redelivered: true },
    properties: { type, messageId: 'b1', correlationId: 'b1', replyTo: 'amq.rabbitmq.reply-to.abc', headers: { 'x-deadline': 5 } },
  });
  return { calls, send };
}

describe('serveCommands', () => {
  it('acknowledges a command before it publishes the reply', async () => {
    const { calls, send } = fakeServer(async () => ({ ok: {} }));
    await new Promise((r) => setImmediate(r));
    send('{}', 'rooms.get-room.v1');
    await new Promise((r) => setTimeout(r, 20));
    // A reply the broker cannot route may close the connection (RabbitMQ 3.10, a requester's node
    // gone): the command must be settled by then, or it comes back to crash the next connection too.
    expect(calls.map((c) => c.what)).toEqual(['ack', 'reply to amq.rabbitmq.reply-to.abc']);
  });
});

describe('serveCommands, batches', () => {
  const settled = () => new Promise((r) => setTimeout(r, 20));

  it('serves each command of a batch as it would alone, then acknowledges and answers them in one reply batch', async () => {
    const seen: Array<{ payload: unknown; meta: CommandMeta }> = [];
    const { calls, send } = fakeServer(async (payload, meta) => {
      seen.push({ payload, meta });
      // The first finishes last: replies keep the batch's order whatever the order of completion.
      await new Promise((r) => setTimeout(r, (payload as { n: number }).n === 0 ? 10 : 0));
      const { n } = payload as { n: number };
      return (n === 1 ? { error: { code: 'not_found', reason: 'room' } } : { ok: { n } }) as RpcReply;
    });
    await new Promise((r) => setImmediate(r));
    send(JSON.stringify({
      commands: [
        { correlationId: 'c0', messageId: 'm0', pattern: 'rooms.get-room.v1', deadline: 1000, headers: {}, payload: { n: 0 } },
        { correlationId: 'c1', messageId: 'm1', pattern: 'rooms.set-topic.v1', deadline: 2000, headers: {}, payload: { n: 1 } },
      ],
    }));
    await settled();
    expect(seen.map((s) => [s.payload, s.meta.pattern, s.meta.commandId, s.meta.deadline, s.meta.redelivered])).toEqual([
      [{ n: 0 }, 'rooms.get-room.v1', 'm0', 1000, true],
      [{ n: 1 }, 'rooms.set-topic.v1', 'm1', 2000, true],
    ]);
    expect(calls).toEqual([
      { what: 'ack' },
      {
        what: 'reply to amq.rabbitmq.reply-to.abc', type: REPLY_BATCH_TYPE, correlationId: 'b1',
        body: { replies: [{ correlationId: 'c0', reply: { ok: { n: 0 } } }, { correlationId: 'c1', reply: { error: { code: 'not_found', reason: 'room' } } }] },
      },
    ]);
  });

  it('answers internal for a command whose handler throws, and the others of its batch as usual', async () => {
    const { calls, send } = fakeServer(async (payload) => {
      if ((payload as { n: number }).n === 0) throw new Error('a defect');
      return { ok: payload } as RpcReply;
    });
    await new Promise((r) => setImmediate(r));
    send(JSON.stringify({ commands: [0, 1].map((n) => ({ correlationId: `c${n}`, pattern: 'rooms.get-room.v1', payload: { n } })) }));
    await settled();
    expect(calls).toEqual([
      { what: 'ack' },
      expect.objectContaining({ body: { replies: [
        { correlationId: 'c0', reply: { error: { code: 'internal', reason: 'unexpected' } } },
        { correlationId: 'c1', reply: { ok: { n: 1 } } },
      ] } }),
    ]);
  });

  it('drops a batch it cannot read (acknowledged, no one to answer)', async () => {
    const handler = jest.fn(async () => ({ ok: {} }));
    const { calls, send } = fakeServer(handler);
    await new Promise((r) => setImmediate(r));
    send('{"commands": [{"pattern": "rooms.get-room.v1"}]}');
    send('not json');
    await settled();
    expect(handler).not.toHaveBeenCalled();
    expect(calls).toEqual([{ what: 'ack' }, { what: 'ack' }]);
  });
});

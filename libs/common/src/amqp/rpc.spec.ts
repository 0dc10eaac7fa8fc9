import { EventEmitter } from 'node:events';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { createLogger } from '../logging';
import { RpcClient } from './rpc';

/** A channel of the connection's current model, answering checkQueue as told. */
function fakeChannel(check: () => Promise<{ consumerCount: number }>) {
  return Object.assign(new EventEmitter(), { checkQueue: jest.fn(check), close: jest.fn(async (): Promise<void> => undefined) });
}
const clientOn = (model: unknown) =>
  new RpcClient({ connection: model } as unknown as AmqpConnectionManager, 'rooms.commands', createLogger('test', 'silent'), 1_000);

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

import { AmqpBroker, createLogger, RpcClient } from '@app/common';
import { brokerNames, CreateRoomV1, CreateUserV1, CreateWebhookV1, SendNotificationV1 } from '@app/contracts';
import { eventually, Stack, startStack } from '../../../test/support/harness';
import { Receiver } from './receiver';

/*
 * A retry waits its own wait, whatever else is parked. The broker's delay queues expire a
 * message only at the head of its queue, so a first retry must never share a queue with
 * second retries: with the tiers once cut at the bare waits (1 s, 20 s here), a first retry
 * jittered above 1 s went to the 20 s queue and came back only after the second retry in
 * front of it, about half of them 20 s late.
 */
const DISPATCHER_ENV = { WEBHOOK_RETRY_SCHEDULE: '1s,20s', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };
/** First retries to watch: each one had an even chance of the long queue, so all of them in time is no luck. */
const EVENTS = 8;

describe('retry waits (real RabbitMQ delay queues)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rpc: RpcClient;

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startStack({ rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
  });

  afterAll(async () => {
    await receiver?.stop();
    await broker?.close();
    await stack?.stop();
  });

  it('makes each first retry after its wait, with second retries parked before it', async () => {
    const ownerId = (await rpc.request(CreateUserV1, { email: 'owner@example.com', name: 'Owner' })).user.id;
    const { room } = await rpc.request(CreateRoomV1, {
      actor: { label: 't' }, name: 'Retries', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    });
    const url = receiver.route('/down', { status: 503 });
    await rpc.request(CreateWebhookV1, { actor: { label: 'admin', userId: ownerId }, room: { id: room.id }, url, event: 'room_notification' });
    const notify = (message: string) => rpc.request(SendNotificationV1, {
      actor: { label: 'ci' }, room: { id: room.id }, message, messageFormat: 'text', notify: false, color: 'yellow',
    });
    const attemptsOf = (message: string) => receiver.to('/down').filter((r) => JSON.parse(r.body).item.message.message === message);

    // A delivery whose second retry (about 20 s) is parked first.
    await notify('parked first');
    await eventually(() => expect(attemptsOf('parked first')).toHaveLength(2), 10_000);

    await Promise.all(Array.from({ length: EVENTS }, (_, i) => notify(`event ${i}`)));
    await eventually(() => {
      for (let i = 0; i < EVENTS; i++) expect(attemptsOf(`event ${i}`)).toHaveLength(2);
    }, 8_000);
    for (let i = 0; i < EVENTS; i++) {
      const [first, second] = attemptsOf(`event ${i}`);
      // 1 s ± 10 %, waited in the broker (plus the time to make and record the attempt).
      expect(second.at - first.at).toBeGreaterThanOrEqual(850);
      expect(second.at - first.at).toBeLessThan(5_000);
    }
    expect(attemptsOf('parked first')).toHaveLength(2);
  });
});

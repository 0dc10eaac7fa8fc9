import { Channel, ChannelModel, connect } from 'amqplib';
import {
  assertQueuesDeclarable, commandQueueDeclaration, consumerQueueDeclarations, createLogger, orderedEventsQueue, DELIVERY_LIMIT, parseConfig, QueueDeclaration, QueueTypeMismatchError,
} from '@app/common';
import { brokerNames, BrokerNames, deliveryDelayQueue } from '@app/contracts';
import { TEST_SECRETS_KEYS, databaseUrl, deleteBrokerNamespace, eventually, Stack, startStack, testInfra, uniqueName } from '../../../test/support/harness';
import { startDispatcher } from '../src/bootstrap';
import { dispatcherConfigShape } from '../src/config';
import { DeliveryDecisions } from '../src/delivery/delivery-decisions';
import { DeliveryJob } from '../src/delivery/delivery-job';
import { DeliveryQueues } from '../src/delivery/delivery-queues';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../src/delivery/retry-policy';
import { roomEventsQueue } from '../src/events/room-events';

/**
 * Durable queues as quorum queues (AMQP_QUEUE_TYPE=quorum) on the local broker. The
 * management API is not enabled here, and checkQueue does not tell a queue's type: a queue's
 * type is read from the broker's refusal to declare it again as a classic queue, whose message
 * says what the queue is ("current is the value 'quorum'").
 */
describe('quorum queues (real RabbitMQ)', () => {
  const infra = testInfra();
  let conn: ChannelModel;

  /**
   * The type the broker has for a queue declared as `declaration` says: its refusal of the same
   * declaration as a stream (RabbitMQ compares the other arguments first) names the current type.
   */
  const typeOf = async ({ queue, options }: QueueDeclaration): Promise<string> => {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    try {
      await ch.assertQueue(queue, { ...options, arguments: { ...options.arguments, 'x-queue-type': 'stream' } });
      return 'stream';
    } catch (err) {
      const message = String((err as Error).message);
      if (!message.includes("inequivalent arg 'x-queue-type'")) throw err;
      return /current is (?:the value )?'(\w+)'/.exec(message)?.[1] ?? 'classic';
    }
  };

  beforeAll(async () => {
    conn = await connect(infra.amqpUrl);
  });
  afterAll(async () => {
    await conn?.close();
  });

  describe('the services, started with AMQP_QUEUE_TYPE=quorum', () => {
    let stack: Stack;
    let names: BrokerNames;
    beforeAll(async () => {
      stack = await startStack({ rooms: { AMQP_QUEUE_TYPE: 'quorum' }, dispatcher: { AMQP_QUEUE_TYPE: 'quorum' } });
      names = brokerNames(stack.namespace);
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it('declare every durable queue as a quorum queue', async () => {
      // The queues each service declares, with the arguments it declares them with.
      const durable = [
        commandQueueDeclaration(names.roomsCommandQueue, 'quorum'), commandQueueDeclaration(names.dispatcherCommandQueue, 'quorum'),
        ...consumerQueueDeclarations(names, roomEventsQueue(names), 'quorum'), ...consumerQueueDeclarations(names, orderedEventsQueue(names), 'quorum'),
        ...DeliveryQueues.declarations(names, new DeliveryDecisions(DEFAULT_RETRY_SCHEDULE_MS).tiers, 'quorum'),
      ];
      expect(durable.map((d) => d.queue)).toEqual(expect.arrayContaining([
        names.dispatcherOrderedDeadLetterQueue, names.deliveriesDeadLetterQueue, names.deliveryInFlightQueue, deliveryDelayQueue(names, 5_500),
      ]));
      const types = Object.fromEntries(await Promise.all(durable.map(async (d) => [d.queue, await typeOf(d)])));
      expect(types).toEqual(Object.fromEntries(durable.map((d) => [d.queue, 'quorum'])));
    });
  });

  describe('the deliveries topology', () => {
    const namespace = uniqueName('qq');
    const names = brokerNames(namespace);
    // A retry schedule of one 300 ms wait: its tiers are 330 ms (the wait, jittered) and 600 ms (Retry-After).
    const schedule = [300];
    const tiers = new DeliveryDecisions(schedule).tiers;
    const delayQueue = deliveryDelayQueue(names, tiers[0]);
    let queues: DeliveryQueues;
    let ch: Channel;
    const job = (deliveryId: string) => ({ deliveryId, attempt: 2 }) as unknown as DeliveryJob;

    beforeAll(async () => {
      queues = await DeliveryQueues.connect(infra.amqpUrl, names, tiers, createLogger('test', 'silent'), 5_000);
      ch = await conn.createChannel();
    });
    afterAll(async () => {
      await ch?.close().catch(() => undefined);
      await queues?.close(0);
      await deleteBrokerNamespace(infra.amqpUrl, namespace, schedule);
    });

    it('parks a retry in its tier\'s quorum delay queue, which dead-letters it back when it expires', async () => {
      expect(await typeOf(DeliveryQueues.declarations(names, tiers, 'quorum')[2])).toBe('quorum');
      const parkedAt = Date.now();
      await queues.publishRetry(job('parked'), 300, tiers[0]);
      expect((await ch.checkQueue(delayQueue)).messageCount).toBe(1);
      expect(await ch.get(names.deliveriesQueue)).toBe(false);
      const back = await eventually(async () => {
        const msg = await ch.get(names.deliveriesQueue, { noAck: true });
        expect(msg).not.toBe(false);
        return msg as Exclude<typeof msg, false>;
      });
      expect(Date.now() - parkedAt).toBeGreaterThanOrEqual(290);
      expect(JSON.parse(back.content.toString())).toEqual({ deliveryId: 'parked', attempt: 2 });
      expect(back.properties.headers?.['x-death']).toEqual([
        expect.objectContaining({ queue: delayQueue, reason: 'expired', count: 1 }),
      ]);
      expect((await ch.checkQueue(delayQueue)).messageCount).toBe(0);
    });

    it('dead-letters a job handed out more than the delivery limit, instead of handing it out forever', async () => {
      await queues.publishJobs([job('poison')]);
      for (let delivery = 0; delivery <= DELIVERY_LIMIT; delivery++) {
        const msg = await eventually(async () => {
          const got = await ch.get(names.deliveriesQueue, { noAck: false });
          expect(got).not.toBe(false);
          return got as Exclude<typeof got, false>;
        });
        expect(msg.properties.headers?.['x-delivery-count'] ?? 0).toBe(delivery);
        ch.nack(msg, false, true);
      }
      const dead = await eventually(async () => {
        const msg = await ch.get(names.deliveriesDeadLetterQueue, { noAck: true });
        expect(msg).not.toBe(false);
        return msg as Exclude<typeof msg, false>;
      });
      expect(JSON.parse(dead.content.toString()).deliveryId).toBe('poison');
      expect(dead.properties.headers?.['x-death']).toEqual([expect.objectContaining({ queue: names.deliveriesQueue, reason: 'delivery_limit' })]);
      expect(await ch.get(names.deliveriesQueue)).toBe(false);
    });
  });

  describe('a deployment whose queues are classic', () => {
    const namespace = uniqueName('qc');
    const names = brokerNames(namespace);

    beforeAll(async () => {
      const ch = await conn.createChannel();
      await ch.assertQueue(names.dispatcherCommandQueue, { durable: true });
      await ch.close();
    });
    afterAll(async () => {
      await deleteBrokerNamespace(infra.amqpUrl, namespace);
    });

    it('stops the start, naming the queue and how to migrate, and leaves the classic queue as it was', async () => {
      const config = parseConfig(dispatcherConfigShape, {
      SECRETS_KEYS: TEST_SECRETS_KEYS,
        AMQP_URL: infra.amqpUrl, BROKER_NAMESPACE: namespace, DATABASE_URL: databaseUrl(infra.pgServerUrl, uniqueName('never')),
        LOG_LEVEL: 'silent', METRICS_PORT: '0', AMQP_QUEUE_TYPE: 'quorum',
      });
      const started = startDispatcher(config);
      await expect(started).rejects.toBeInstanceOf(QueueTypeMismatchError);
      await expect(started).rejects.toThrow(
        `RabbitMQ already has the queue "${names.dispatcherCommandQueue}" as a classic queue; AMQP_QUEUE_TYPE asks for quorum.`);
      await expect(started).rejects.toThrow('Either set AMQP_QUEUE_TYPE=classic');
      expect(await typeOf(commandQueueDeclaration(names.dispatcherCommandQueue, 'classic'))).toBe('classic');
    });

    it('passes with AMQP_QUEUE_TYPE=classic, whose topology is declared as before', async () => {
      await assertQueuesDeclarable([infra.amqpUrl], [commandQueueDeclaration(names.dispatcherCommandQueue, 'classic')], 5_000);
      const tiers = new DeliveryDecisions([300]).tiers;
      const queues = await DeliveryQueues.connect(infra.amqpUrl, names, tiers, createLogger('test', 'silent'), 5_000, 'classic');
      await queues.close(0);
      const declarations: QueueDeclaration[] = DeliveryQueues.declarations(names, tiers, 'classic');
      expect(await Promise.all(declarations.map(typeOf))).toEqual(declarations.map(() => 'classic'));
      await deleteBrokerNamespace(infra.amqpUrl, namespace, [300]);
    });
  });
});

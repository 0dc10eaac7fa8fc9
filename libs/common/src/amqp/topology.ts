import type { Channel, ConfirmChannel } from 'amqplib';
import { BrokerNames } from '@app/contracts';
import { declareQueue, durableQueueOptions, QueueDeclaration, QueueType } from './queue-arguments';

/** The exchanges every publisher and consumer of domain events relies on. */
export async function assertEventExchanges(channel: Channel | ConfirmChannel, names: BrokerNames): Promise<void> {
  await channel.assertExchange(names.eventsExchange, 'topic', { durable: true });
  await channel.assertExchange(names.deadLetterExchange, 'direct', { durable: true });
}

export interface ConsumerQueueSpec {
  queue: string;
  deadLetterQueue: string;
  /** Binding patterns on the events exchange, e.g. `room.*.v2`. */
  bindings: string[];
  /**
   * One consumer at a time receives the queue's messages, in order, whatever the number
   * consuming (RabbitMQ's single active consumer); the next takes over when it goes.
   */
  singleActiveConsumer?: boolean;
}

/**
 * The queue of the ordered deliveries' events (webhooks registered `"delivery": "ordered"`):
 * fed by the rooms service's outbox relay, in commit order, with the room events of rooms
 * that have an ordered webhook (no binding: nothing else reaches it); consumed by one
 * dispatcher replica at a time. Declared alike by both sides (arguments must agree).
 */
export const orderedEventsQueue = (names: BrokerNames): ConsumerQueueSpec => ({
  queue: names.dispatcherOrderedEventsQueue,
  deadLetterQueue: names.dispatcherOrderedDeadLetterQueue,
  bindings: [],
  singleActiveConsumer: true,
});

/** The queues of a ConsumerQueueSpec: its dead-letter queue first (the queue dead-letters to it). */
export function consumerQueueDeclarations(names: BrokerNames, spec: ConsumerQueueSpec, type: QueueType): QueueDeclaration[] {
  return [
    { queue: spec.deadLetterQueue, options: durableQueueOptions(type, { kind: 'dead-letter' }) },
    {
      queue: spec.queue,
      options: durableQueueOptions(type, {
        kind: 'events',
        deadLetter: { exchange: names.deadLetterExchange, routingKey: spec.queue },
        singleActiveConsumer: spec.singleActiveConsumer,
      }),
    },
  ];
}

/** A command queue (see serveCommands). */
export function commandQueueDeclaration(queue: string, type: QueueType): QueueDeclaration {
  return { queue, options: durableQueueOptions(type, { kind: 'commands' }) };
}

/**
 * A durable queue bound to the events exchange whose rejected messages go, through the
 * dead-letter exchange, to a durable dead-letter queue of its own.
 */
export async function assertConsumerQueue(
  channel: Channel | ConfirmChannel,
  names: BrokerNames,
  spec: ConsumerQueueSpec,
  type: QueueType,
): Promise<void> {
  await assertEventExchanges(channel, names);
  const [deadLetter, queue] = consumerQueueDeclarations(names, spec, type);
  await declareQueue(channel, deadLetter);
  await channel.bindQueue(spec.deadLetterQueue, names.deadLetterExchange, spec.queue);
  await declareQueue(channel, queue);
  for (const pattern of spec.bindings) {
    await channel.bindQueue(spec.queue, names.eventsExchange, pattern);
  }
}

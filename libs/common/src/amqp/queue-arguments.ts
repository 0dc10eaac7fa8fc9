import type { Options } from 'amqplib';
import { ExplainedStartupError } from '../infra/explained-error';

/**
 * The type of every durable queue (AMQP_QUEUE_TYPE): `quorum` (replicated across the nodes of
 * a cluster, RabbitMQ 3.10 or later) or `classic` (a broker that has none, or a deployment
 * not yet migrated). Transient queues (exclusive, auto-delete) are classic whatever this says:
 * a quorum queue cannot be exclusive.
 */
export type QueueType = 'quorum' | 'classic';
export const QUEUE_TYPES: readonly QueueType[] = ['quorum', 'classic'];

/**
 * How many times a quorum queue hands a message out again (consumer gone, nack with requeue)
 * before it dead-letters it (or drops it, where the queue has no dead-letter exchange): a
 * message that crashes every consumer it reaches stops coming back. Every return counts on
 * RabbitMQ 3.10, a closed channel included (so a rolling restart counts once per replica).
 */
export const DELIVERY_LIMIT = 20;

interface DeadLettering {
  /** Where the queue's rejected (or expired) messages go, with this routing key. */
  exchange: string;
  routingKey: string;
}

/** The kinds of durable queue the services declare. */
export type QueueKind =
  /** A command queue (RPC server): every command is acknowledged; only a crash hands one out again. */
  | { kind: 'commands' }
  /**
   * Room events consumed by the dispatcher. No delivery limit: their consumers requeue on
   * purpose, once a second, while a dependency is away (rooms service, database), and any
   * limit would dead-letter good events during a long enough outage.
   */
  | { kind: 'events'; deadLetter: DeadLettering; singleActiveConsumer?: boolean }
  /** Delivery jobs: consumed, and dead-lettered when unreadable or handed out too often. */
  | { kind: 'jobs'; deadLetter: DeadLettering }
  /** Where another queue's rejected messages end up, to be looked at. Nothing consumes it. */
  | { kind: 'dead-letter' }
  /** Messages wait out their expiration here, then are dead-lettered back to work. Nothing consumes it. */
  | { kind: 'delay'; deadLetter: DeadLettering };

/**
 * The declaration of a durable queue of a kind, as a queue of the given type. Arguments go in
 * `arguments` (the same on the wire as amqplib's named options), so that a test can compare them.
 */
export function durableQueueOptions(type: QueueType, queue: QueueKind): Options.AssertQueue {
  const args: Record<string, unknown> = {};
  if (type === 'quorum') args['x-queue-type'] = 'quorum';
  if ('deadLetter' in queue) {
    args['x-dead-letter-exchange'] = queue.deadLetter.exchange;
    args['x-dead-letter-routing-key'] = queue.deadLetter.routingKey;
    if (type === 'quorum') {
      // At-most-once (the default) drops what the target does not take, and loses what was
      // being dead-lettered when the leader fails: a parked retry would be gone. At-least-once
      // needs reject-publish overflow (no length limit is set, so nothing is refused today).
      args['x-dead-letter-strategy'] = 'at-least-once';
      args['x-overflow'] = 'reject-publish';
    }
  }
  if (queue.kind === 'events' && queue.singleActiveConsumer) args['x-single-active-consumer'] = true;
  if (type === 'quorum' && (queue.kind === 'commands' || queue.kind === 'jobs')) args['x-delivery-limit'] = DELIVERY_LIMIT;
  return Object.keys(args).length > 0 ? { durable: true, arguments: args } : { durable: true };
}

/** The oldest RabbitMQ whose quorum queues have what durableQueueOptions asks of them (at-least-once dead-lettering, per-message TTL). */
export const QUORUM_MIN_VERSION = '3.10.0';

/**
 * Why a broker cannot hold the quorum queues of durableQueueOptions, or undefined when it can.
 * `version` is the broker's own (its `version` server property); one that cannot be read is
 * given the benefit of the doubt (the declarations then say what is missing).
 */
export function quorumUnsupportedReason(version: unknown): string | undefined {
  const m = typeof version === 'string' ? /^(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major > 3 || (major === 3 && minor >= 10)) return undefined;
  return `RabbitMQ ${version} cannot hold the quorum queues AMQP_QUEUE_TYPE=quorum (the default) asks for: ` +
    `at-least-once dead-lettering and message TTL on quorum queues need RabbitMQ ${QUORUM_MIN_VERSION} or later.\n` +
    `Upgrade the broker, or set AMQP_QUEUE_TYPE=classic (queues on one node, not replicated).`;
}

export class QueueTypeUnsupportedError extends ExplainedStartupError {
  constructor(message: string) {
    super(message);
    this.name = 'QueueTypeUnsupportedError';
  }
}

/** A durable queue as a service declares it. */
export interface QueueDeclaration {
  queue: string;
  options: Options.AssertQueue;
}

/**
 * The queue exists with another type than AMQP_QUEUE_TYPE asks for (RabbitMQ refuses the
 * declaration with PRECONDITION_FAILED and closes the channel): the message names the queue
 * and the ways out.
 */
export class QueueTypeMismatchError extends ExplainedStartupError {
  constructor(readonly queue: string, readonly wanted: QueueType, readonly brokerMessage: string) {
    const other: QueueType = wanted === 'quorum' ? 'classic' : 'quorum';
    super(
      `RabbitMQ already has the queue "${queue}" as a ${other} queue; AMQP_QUEUE_TYPE asks for ${wanted}.\n` +
      `Either set AMQP_QUEUE_TYPE=${other} (and keep the ${other} queues), or migrate: stop every service, ` +
      `let the queues drain (rabbitmqctl list_queues name type messages), delete the ${other} queues of ` +
      `the namespace (rabbitmqctl delete_queue <name>; their dead-letter queues too, once read), and start again.\n` +
      `  (broker: ${brokerMessage})`,
    );
    this.name = 'QueueTypeMismatchError';
  }
}

/**
 * assertQueue, with the broker's refusal of another queue type turned into a
 * QueueTypeMismatchError (any other refusal is passed on as it is).
 */
export async function declareQueue(
  channel: { assertQueue(queue: string, options?: Options.AssertQueue): Promise<unknown> },
  { queue, options }: QueueDeclaration,
): Promise<void> {
  try {
    await channel.assertQueue(queue, options);
  } catch (err) {
    const e = err as { code?: number; message?: string };
    if (e?.code === 406 && /inequivalent arg 'x-queue-type'/.test(String(e.message))) {
      const wanted: QueueType = options.arguments?.['x-queue-type'] === 'quorum' ? 'quorum' : 'classic';
      throw new QueueTypeMismatchError(queue, wanted, String(e.message).replace(/^.*?PRECONDITION_FAILED - /, ''));
    }
    throw err;
  }
}

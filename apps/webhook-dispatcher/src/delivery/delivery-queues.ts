import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import {
  AmqpUrls, AppLogger, connectAmqp, CONSUMER_CANCELLED, declareQueue, durableQueueOptions, HandlerOutcome, openChannel, QueueDeclaration, QueueType,
} from '@app/common';
import { BrokerNames, deliveryDelayQueue } from '@app/contracts';
import { DeliveryJob, deliveryJobSchema } from './delivery-job';

/**
 * The job's message in hand. `release()` acknowledges it before the handler ends (the job is
 * then safe elsewhere: see DeliveryWorker's guard copies); the handler's outcome is then moot.
 */
export interface JobLease {
  release(): void;
  /**
   * The broker handed this message out before (its consumer died or gave it back): the
   * attempt it asks for may have been made already.
   */
  redelivered?: boolean;
  /**
   * Even a first attempt's job may be here twice: this replica's broker connection dropped
   * lately (COPIES_WINDOW_MS), and a publish whose confirm was lost then may have reached the
   * broker after all, beside the copy its event's redelivery made (see lost-confirms.int-spec).
   */
  mayBeCopy?: boolean;
}

/** How long after its broker connection dropped a replica looks up every job it is handed. */
export const COPIES_WINDOW_MS = 10 * 60_000;

export type JobHandler = (job: DeliveryJob, lease: JobLease) => Promise<HandlerOutcome>;

/**
 * The broker side of deliveries: a durable queue of jobs (one per event and registration),
 * fed through a direct exchange, and one durable delay queue per tier of the retry schedule
 * whose messages, once their own expiration passes, are dead-lettered back to that exchange.
 * Waiting for a retry thus happens in the broker, never in a timer of a process that may die.
 * The in-flight queue works the same way for the guard copies of slow attempts.
 *
 * A connection of its own (set up as AmqpBroker's, by connectAmqp): the shared broker's
 * channels are made for domain events and commands, not this topology.
 */
export class DeliveryQueues {
  private publisher!: ChannelWrapper;
  private consumer: ChannelWrapper | null = null;
  /** The consuming channel and tag of the current connection, to cancel on close. */
  private consuming: { ch: ConfirmChannel; tag: string } | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private closing = false;
  /** When the connection last dropped (0: never). */
  private droppedAt = 0;

  private constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly names: BrokerNames,
    private readonly tiers: readonly number[],
    private readonly logger: AppLogger,
    private readonly queueType: QueueType,
  ) {}

  static async connect(
    urls: AmqpUrls, names: BrokerNames, tiers: readonly number[], logger: AppLogger, timeoutMs: number, queueType: QueueType = 'quorum',
  ): Promise<DeliveryQueues> {
    const connection = await connectAmqp(urls, logger, { timeoutMs, name: 'deliveries' });
    const queues = new DeliveryQueues(connection, names, tiers, logger, queueType);
    connection.on('disconnect', () => {
      queues.droppedAt = Date.now();
    });
    queues.publisher = queues.track(openChannel(connection, logger, 'deliveries publisher', {
      json: false,
      confirm: true,
      // A burst (a receiver's thousand failed attempts retried at once) may take the broker seconds to confirm;
      // a publish given up on too soon would be made again (a duplicate).
      publishTimeout: 30_000,
      setup: (ch: ConfirmChannel) => queues.assertTopology(ch),
    }), 'deliveries publisher');
    await queues.publisher.waitForConnect();
    return queues;
  }

  /** The delay queue of a tier. */
  delayQueue(tierMs: number): string {
    return deliveryDelayQueue(this.names, tierMs);
  }

  /**
   * Where the guard copy of an attempt in flight waits (see DeliveryWorker), and a deferred
   * job: every message there has the same expiration, so first in is first out.
   */
  get inFlightQueue(): string {
    return this.names.deliveryInFlightQueue;
  }

  /**
   * The durable queues of deliveries, in the order they are declared (a dead-letter queue
   * before the queue that dead-letters to it): the deliveries queue, its dead-letter queue,
   * the delay queue of every tier and the in-flight queue (both dead-letter back to the
   * deliveries exchange once a message's expiration passes).
   */
  static declarations(names: BrokerNames, tiers: readonly number[], type: QueueType): QueueDeclaration[] {
    const back = { exchange: names.deliveriesExchange, routingKey: names.deliveriesQueue };
    return [
      { queue: names.deliveriesDeadLetterQueue, options: durableQueueOptions(type, { kind: 'dead-letter' }) },
      {
        queue: names.deliveriesQueue,
        options: durableQueueOptions(type, { kind: 'jobs', deadLetter: { exchange: names.deadLetterExchange, routingKey: names.deliveriesQueue } }),
      },
      ...[...tiers.map((tier) => deliveryDelayQueue(names, tier)), names.deliveryInFlightQueue]
        .map((queue) => ({ queue, options: durableQueueOptions(type, { kind: 'delay', deadLetter: back }) })),
    ];
  }

  private async assertTopology(ch: ConfirmChannel): Promise<void> {
    const n = this.names;
    await ch.assertExchange(n.deliveriesExchange, 'direct', { durable: true });
    await ch.assertExchange(n.deadLetterExchange, 'direct', { durable: true });
    const [deadLetter, deliveries, ...delays] = DeliveryQueues.declarations(n, this.tiers, this.queueType);
    await declareQueue(ch, deadLetter);
    await ch.bindQueue(n.deliveriesDeadLetterQueue, n.deadLetterExchange, n.deliveriesQueue);
    await declareQueue(ch, deliveries);
    await ch.bindQueue(n.deliveriesQueue, n.deliveriesExchange, n.deliveriesQueue);
    for (const delay of delays) await declareQueue(ch, delay);
  }

  private track(channel: ChannelWrapper, what: string): ChannelWrapper {
    channel.on('error', (err: Error) => this.logger.warn({ err: err.message, channel: what }, 'AMQP channel error'));
    return channel;
  }

  /** Resolves once the broker has confirmed every job (persistent messages). */
  async publishJobs(jobs: readonly DeliveryJob[]): Promise<void> {
    await Promise.all(jobs.map((job) =>
      this.publisher.publish(this.names.deliveriesExchange, this.names.deliveriesQueue, Buffer.from(JSON.stringify(job)), {
        persistent: true, contentType: 'application/json', messageId: job.deliveryId,
      })));
  }

  /** Parks the job in its tier's delay queue; resolves once the broker has confirmed it. */
  async publishRetry(job: DeliveryJob, delayMs: number, tierMs: number): Promise<void> {
    if (!this.tiers.includes(tierMs)) throw new Error(`no delay queue for ${tierMs} ms`);
    await this.publisher.sendToQueue(this.delayQueue(tierMs), Buffer.from(JSON.stringify(job)), {
      persistent: true, contentType: 'application/json', messageId: job.deliveryId, expiration: String(Math.max(0, Math.round(delayMs))),
    });
  }

  /** Parks a job in the in-flight queue, to come back to the deliveries queue after `expirationMs`. */
  async publishInFlight(job: DeliveryJob, expirationMs: number): Promise<void> {
    await this.publisher.sendToQueue(this.inFlightQueue, Buffer.from(JSON.stringify(job)), {
      persistent: true, contentType: 'application/json', messageId: job.deliveryId, expiration: String(Math.max(0, Math.round(expirationMs))),
    });
  }

  /**
   * Consumes the jobs, up to `prefetch` at once, each handled on its own (a receiver that
   * hangs holds one slot, not the queue). An unreadable job is dead-lettered.
   */
  async consume(prefetch: number, handler: JobHandler): Promise<void> {
    this.consumer = this.track(openChannel(this.connection, this.logger, 'deliveries consumer', {
      json: false,
      setup: async (ch: ConfirmChannel, lost) => {
        await this.assertTopology(ch);
        await ch.prefetch(prefetch);
        const { consumerTag } = await ch.consume(this.names.deliveriesQueue, (msg) => {
          if (!msg) return lost(CONSUMER_CANCELLED);
          const handling = this.dispatch(ch, msg, handler);
          this.inFlight.add(handling);
          void handling.finally(() => this.inFlight.delete(handling));
        }, { noAck: false });
        this.consuming = { ch, tag: consumerTag };
      },
    }), 'deliveries consumer');
    await this.consumer.waitForConnect();
  }

  private async dispatch(ch: ConfirmChannel, msg: ConsumeMessage, handler: JobHandler): Promise<void> {
    let settled = false;
    const settle = (outcome: HandlerOutcome) => {
      if (settled) return;
      settled = true;
      try {
        if (outcome === 'ack') ch.ack(msg);
        else ch.nack(msg, false, outcome === 'requeue');
      } catch (err) {
        // The channel closed under us: the broker hands the job out again.
        this.logger.warn({ err: (err as Error).message, messageId: msg.properties.messageId }, 'could not settle delivery job');
      }
    };
    let outcome: HandlerOutcome;
    if (this.closing) {
      outcome = 'requeue';
    } else {
      let parsed: ReturnType<typeof deliveryJobSchema.safeParse> | null = null;
      try {
        parsed = deliveryJobSchema.safeParse(JSON.parse(msg.content.toString('utf8')));
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        this.logger.error({ messageId: msg.properties.messageId }, 'unreadable delivery job; dead-lettering');
        outcome = 'dead-letter';
      } else {
        try {
          const mayBeCopy = this.droppedAt > 0 && Date.now() - this.droppedAt < COPIES_WINDOW_MS;
          outcome = await handler(parsed.data, { release: () => settle('ack'), redelivered: msg.fields.redelivered, mayBeCopy });
        } catch (err) {
          this.logger.error({ err, deliveryId: parsed.data.deliveryId }, 'delivery handler failed');
          outcome = msg.fields.redelivered ? 'dead-letter' : 'requeue';
        }
      }
    }
    settle(outcome);
  }

  /**
   * Stops taking jobs, lets those in hand finish (up to `drainMs`: what is still unsettled
   * then goes back to the queue when the channel closes), and disconnects.
   */
  /** False while its connection to the broker is down (it reconnects by itself). */
  isConnected(): boolean {
    return this.connection.isConnected();
  }

  async close(drainMs: number): Promise<void> {
    this.closing = true;
    if (this.consuming) await this.consuming.ch.cancel(this.consuming.tag).catch(() => undefined);
    if (this.inFlight.size) {
      await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, drainMs).unref())]);
    }
    await this.consumer?.close().catch(() => undefined);
    await this.publisher?.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}

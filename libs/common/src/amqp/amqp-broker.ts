import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { BrokerNames, EventEnvelope } from '@app/contracts';
import { Counter, Registry } from 'prom-client';
import type { AppLogger } from '../logging';
import { AmqpUrls, connectAmqp } from './connect';
import { CommandHandler, RpcClient, serveCommands } from './rpc';
import { QueueType } from './queue-arguments';
import { assertConsumerQueue, assertEventExchanges, ConsumerQueueSpec, orderedEventsQueue } from './topology';

/** What a handler decides for a delivered message (golevelup style: always explicit). */
export type HandlerOutcome = 'ack' | 'dead-letter' | 'requeue';

export type EventHandler = (envelope: EventEnvelope, message: ConsumeMessage) => Promise<HandlerOutcome>;

/**
 * The one AMQP set-up of every app: one managed connection per process (see connectAmqp).
 * amqp-connection-manager reconnects after a broker restart and re-runs each channel's
 * setup (topology, consumers). Every channel has an error listener: an error event with
 * none would be thrown, and a broker outage must never kill a process.
 */
export class AmqpBroker {
  private readonly channels: ChannelWrapper[] = [];
  private readonly clients: RpcClient[] = [];
  private readonly consumed: Counter<'messaging_destination_name' | 'outcome'> | null;

  private constructor(
    private readonly connection: AmqpConnectionManager,
    readonly names: BrokerNames,
    private readonly logger: AppLogger,
    /** The type of the durable queues it declares (AMQP_QUEUE_TYPE). */
    readonly queueType: QueueType,
    metrics?: Registry,
  ) {
    this.consumed = metrics ? new Counter({
      name: 'messaging_client_consumed_messages_total',
      help: 'Messages consumed from durable queues (consumeEvents), by queue and what became of them (ack, requeue, dead-letter).',
      labelNames: ['messaging_destination_name', 'outcome'],
      registers: [metrics],
    }) : null;
  }

  /**
   * `urls`: the nodes of the cluster (any that answers). `metrics`: the service's registry, where
   * consumed messages are counted. `queueType`: AMQP_QUEUE_TYPE.
   */
  static async connect(
    urls: AmqpUrls, names: BrokerNames, logger: AppLogger, timeoutMs = 10_000, metrics?: Registry, queueType: QueueType = 'quorum',
  ): Promise<AmqpBroker> {
    return new AmqpBroker(await connectAmqp(urls, logger, { timeoutMs }), names, logger, queueType, metrics);
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  private track(channel: ChannelWrapper, what: string): ChannelWrapper {
    channel.on('error', (err: Error) => this.logger.warn({ err: err.message, channel: what }, 'AMQP channel error'));
    this.channels.push(channel);
    return channel;
  }

  /**
   * A confirm channel for publishing events: `publish` resolves once the broker has them,
   * and rejects when it has not confirmed them within `publishTimeoutMs` (for instance
   * while the broker is unreachable), instead of waiting for a reconnection forever.
   */
  createEventPublisher(publishTimeoutMs = 5_000): EventPublisher {
    const channel = this.track(this.connection.createChannel({
      json: false,
      confirm: true,
      publishTimeout: publishTimeoutMs,
      setup: async (ch: ConfirmChannel) => {
        await assertEventExchanges(ch, this.names);
        await assertConsumerQueue(ch, this.names, orderedEventsQueue(this.names), this.queueType);
      },
    }), 'events publisher');
    return new EventPublisher(channel, this.names.eventsExchange, this.names.dispatcherOrderedEventsQueue, () => this.connection.isConnected());
  }

  /** Request/reply client of a command queue. */
  async createRpcClient(queue: string, timeoutMs: number): Promise<RpcClient> {
    const client = new RpcClient(this.connection, queue, this.logger, timeoutMs);
    await client.start();
    this.clients.push(client);
    return client;
  }

  /** Serves a command queue; see serveCommands. */
  async serveCommands(queue: string, prefetch: number, handler: CommandHandler): Promise<void> {
    this.track(await serveCommands(this.connection, queue, prefetch, this.logger, handler, this.queueType), `commands ${queue}`);
  }

  /**
   * Consumes a durable queue with manual acknowledgement; rejected messages are dead-lettered.
   * `stop()` closes the consuming channel: the messages not yet settled go back to the queue.
   */
  async consumeEvents(spec: ConsumerQueueSpec, prefetch: number, handler: EventHandler): Promise<{ stop(): Promise<void> }> {
    const channel = this.track(this.connection.createChannel({
      json: false,
      setup: async (ch: ConfirmChannel) => {
        await assertConsumerQueue(ch, this.names, spec, this.queueType);
        await ch.prefetch(prefetch);
        await ch.consume(spec.queue, (msg) => {
          if (msg) void this.dispatch(ch, msg, handler, spec.queue);
        }, { noAck: false });
      },
    }), `events ${spec.queue}`);
    await channel.waitForConnect();
    return {
      stop: async () => {
        const at = this.channels.indexOf(channel);
        if (at !== -1) this.channels.splice(at, 1);
        await channel.close().catch(() => undefined);
      },
    };
  }

  /**
   * Events for this process alone (an exclusive queue that goes with the connection), for
   * notices every replica must see, such as a revoked token. `onConnect` runs on every
   * (re)connection: what was published while disconnected is missed, so it should reset
   * whatever the notices keep current. `stop()` closes the channel (the queue goes with it).
   * `connectTimeoutMs`: give up waiting for the first connection (the broker is down) with
   * an error; the channel is closed then.
   */
  async subscribeTransient(
    bindings: string[], onEvent: (envelope: EventEnvelope, routingKey: string) => void, onConnect: () => void, connectTimeoutMs?: number,
  ): Promise<{ stop(): Promise<void> }> {
    const channel = this.track(this.connection.createChannel({
      json: false,
      setup: async (ch: ConfirmChannel) => {
        await assertEventExchanges(ch, this.names);
        const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
        for (const pattern of bindings) await ch.bindQueue(queue, this.names.eventsExchange, pattern);
        await ch.consume(queue, (msg) => {
          if (!msg) return;
          try {
            onEvent(JSON.parse(msg.content.toString('utf8')) as EventEnvelope, msg.fields.routingKey);
          } catch (err) {
            this.logger.warn({ err, routingKey: msg.fields.routingKey }, 'unreadable notice ignored');
          }
        }, { noAck: true });
        onConnect();
      },
    }), 'transient subscription');
    const stop = async () => {
      const at = this.channels.indexOf(channel);
      if (at !== -1) this.channels.splice(at, 1);
      await channel.close().catch(() => undefined);
    };
    if (connectTimeoutMs === undefined) {
      await channel.waitForConnect();
    } else {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), connectTimeoutMs)));
      const outcome = await Promise.race([channel.waitForConnect().then(() => 'connected' as const), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        await stop();
        throw new Error(`the broker did not answer within ${connectTimeoutMs} ms`);
      }
    }
    return { stop };
  }

  private async dispatch(ch: ConfirmChannel, msg: ConsumeMessage, handler: EventHandler, queue: string): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = JSON.parse(msg.content.toString('utf8')) as EventEnvelope;
    } catch {
      this.logger.error({ routingKey: msg.fields.routingKey }, 'unparseable event; dead-lettering');
      this.consumed?.inc({ messaging_destination_name: queue, outcome: 'dead-letter' });
      ch.nack(msg, false, false);
      return;
    }
    let outcome: HandlerOutcome;
    try {
      outcome = await handler(envelope, msg);
    } catch (err) {
      this.logger.error({ err, eventId: envelope?.id, routingKey: msg.fields.routingKey }, 'event handler failed');
      outcome = msg.fields.redelivered ? 'dead-letter' : 'requeue';
    }
    this.consumed?.inc({ messaging_destination_name: queue, outcome });
    try {
      if (outcome === 'ack') ch.ack(msg);
      else ch.nack(msg, false, outcome === 'requeue');
    } catch (err) {
      // The channel closed under us; the broker redelivers the message.
      this.logger.warn({ err, eventId: envelope?.id }, 'could not settle message');
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
    await Promise.all(this.channels.map((c) => c.close().catch(() => undefined)));
    await this.connection.close().catch(() => undefined);
  }
}

export class EventPublisher {
  constructor(
    private readonly channel: ChannelWrapper,
    private readonly exchange: string,
    private readonly orderedQueue: string,
    private readonly connected: () => boolean,
  ) {}

  /** False while the broker is unreachable: callers leave events in the outbox for later. */
  isConnected(): boolean {
    return this.connected();
  }

  /**
   * Resolves when the broker has confirmed the (persistent) message. `ordered`: the event
   * also goes, right after, to the ordered deliveries' queue (see orderedEventsQueue) with
   * its routing key; the same channel keeps the order of both.
   */
  async publish(routingKey: string, envelope: EventEnvelope | string, ordered = false): Promise<void> {
    const body = Buffer.from(typeof envelope === 'string' ? envelope : JSON.stringify(envelope));
    const parsed = typeof envelope === 'string' ? undefined : envelope;
    const options = {
      persistent: true,
      contentType: 'application/json',
      ...(parsed ? { messageId: parsed.id, type: parsed.type, timestamp: Math.floor(Date.parse(parsed.occurredAt) / 1000) } : {}),
    };
    const published = this.channel.publish(this.exchange, routingKey, body, options);
    // Through the default exchange: the routing key travels as a header, where the consumer reads it.
    const queued = ordered ? this.channel.sendToQueue(this.orderedQueue, body, { ...options, headers: { 'x-routing-key': routingKey } }) : undefined;
    await Promise.all([published, queued]);
  }
}

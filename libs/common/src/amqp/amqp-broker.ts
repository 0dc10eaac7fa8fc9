import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { BrokerNames, EventEnvelope } from '@app/contracts';
import { Counter, Registry } from 'prom-client';
import { Context, SpanKind } from '@opentelemetry/api';
import type { AppLogger } from '../logging';
import { contextFromHeaders, contextOf, endWithError, injectHeaders, Tracing, withSpan } from '../tracing';
import { CONSUMER_CANCELLED, openChannel } from './channel-healing';
import { AmqpUrls, connectAmqp } from './connect';
import { CommandHandler, RpcClient, serveCommands } from './rpc';
import { QueueType } from './queue-arguments';
import { assertConsumerQueue, assertEventExchanges, ConsumerQueueSpec, orderedEventsQueue } from './topology';

/** What a handler decides for a delivered message (golevelup style: always explicit). */
export type HandlerOutcome = 'ack' | 'dead-letter' | 'requeue';

/** `trace`: the context of the message's consumer span (a child of the span that published it). */
export type EventHandler = (envelope: EventEnvelope, message: ConsumeMessage, trace: Context) => Promise<HandlerOutcome>;

export interface AmqpBrokerOptions {
  /** The service's registry, where consumed messages are counted. */
  metrics?: Registry;
  /** The type of the durable queues it declares (AMQP_QUEUE_TYPE). */
  queueType?: QueueType;
  /** The service's tracer: commands and events carry their span's traceparent in their headers. */
  tracing?: Tracing;
}

/**
 * The one AMQP set-up of every app: one managed connection per process (see connectAmqp).
 * amqp-connection-manager reconnects after a broker restart and re-runs each channel's
 * setup (topology, consumers); a channel lost while the connection stays up (closed by the
 * broker, its setup refused, its consumer cancelled) has the connection reopened for it
 * (openChannel). Every channel has an error listener: an error event with none would be
 * thrown, and a broker outage must never kill a process.
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
    readonly tracing: Tracing,
    metrics?: Registry,
  ) {
    this.consumed = metrics ? new Counter({
      name: 'messaging_client_consumed_messages_total',
      help: 'Messages consumed from durable queues (consumeEvents), by queue and what became of them (ack, requeue, dead-letter).',
      labelNames: ['messaging_destination_name', 'outcome'],
      registers: [metrics],
    }) : null;
  }

  /** `urls`: the nodes of the cluster (any that answers). */
  static async connect(
    urls: AmqpUrls, names: BrokerNames, logger: AppLogger, timeoutMs = 10_000, options: AmqpBrokerOptions = {},
  ): Promise<AmqpBroker> {
    return new AmqpBroker(
      await connectAmqp(urls, logger, { timeoutMs }), names, logger, options.queueType ?? 'quorum', options.tracing ?? Tracing.off(), options.metrics,
    );
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
    const channel = this.track(openChannel(this.connection, this.logger, 'events publisher', {
      json: false,
      confirm: true,
      publishTimeout: publishTimeoutMs,
      setup: async (ch: ConfirmChannel) => {
        await assertEventExchanges(ch, this.names);
        await assertConsumerQueue(ch, this.names, orderedEventsQueue(this.names), this.queueType);
      },
    }), 'events publisher');
    return new EventPublisher(channel, this.names.eventsExchange, this.names.dispatcherOrderedEventsQueue, () => this.connection.isConnected(), this.tracing);
  }

  /** Request/reply client of a command queue. */
  async createRpcClient(queue: string, timeoutMs: number): Promise<RpcClient> {
    const client = new RpcClient(this.connection, queue, this.logger, timeoutMs, this.tracing);
    await client.start();
    this.clients.push(client);
    return client;
  }

  /** Serves a command queue; see serveCommands. */
  async serveCommands(queue: string, prefetch: number, handler: CommandHandler): Promise<void> {
    this.track(await serveCommands(this.connection, queue, prefetch, this.logger, handler, this.queueType, this.tracing), `commands ${queue}`);
  }

  /**
   * Consumes a durable queue with manual acknowledgement; rejected messages are dead-lettered.
   * `stop()` closes the consuming channel: the messages not yet settled go back to the queue.
   */
  async consumeEvents(spec: ConsumerQueueSpec, prefetch: number, handler: EventHandler): Promise<{ stop(): Promise<void> }> {
    const channel = this.track(openChannel(this.connection, this.logger, `events ${spec.queue}`, {
      json: false,
      setup: async (ch: ConfirmChannel, lost) => {
        await assertConsumerQueue(ch, this.names, spec, this.queueType);
        await ch.prefetch(prefetch);
        await ch.consume(spec.queue, (msg) => {
          if (msg) void this.dispatch(ch, msg, handler, spec.queue);
          else lost(CONSUMER_CANCELLED);
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
    const channel = this.track(openChannel(this.connection, this.logger, 'transient subscription', {
      json: false,
      setup: async (ch: ConfirmChannel, lost) => {
        await assertEventExchanges(ch, this.names);
        const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
        for (const pattern of bindings) await ch.bindQueue(queue, this.names.eventsExchange, pattern);
        await ch.consume(queue, (msg) => {
          if (!msg) return lost(CONSUMER_CANCELLED);
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
    // A child of the span that published it (its traceparent header): the trace goes on here.
    const span = this.tracing.span(`process ${msg.fields.routingKey}`, SpanKind.CONSUMER, contextFromHeaders(msg.properties.headers), () => ({
      'messaging.system': 'rabbitmq', 'messaging.operation.type': 'process', 'messaging.destination.name': queue,
      'messaging.rabbitmq.destination.routing_key': msg.fields.routingKey, 'messaging.message.id': envelope?.id,
    }));
    let outcome: HandlerOutcome;
    try {
      outcome = await handler(envelope, msg, withSpan(span));
    } catch (err) {
      this.logger.error({ err, eventId: envelope?.id, routingKey: msg.fields.routingKey }, 'event handler failed');
      outcome = msg.fields.redelivered ? 'dead-letter' : 'requeue';
    }
    this.consumed?.inc({ messaging_destination_name: queue, outcome });
    if (outcome === 'ack') span.end();
    else endWithError(span, outcome);
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
    private readonly tracing: Tracing,
  ) {}

  /** False while the broker is unreachable: callers leave events in the outbox for later. */
  isConnected(): boolean {
    return this.connected();
  }

  /**
   * Resolves when the broker has confirmed the (persistent) message. `ordered`: the event
   * also goes, right after, to the ordered deliveries' queue (see orderedEventsQueue) with
   * its routing key; the same channel keeps the order of both. `traceparent`: the span that
   * caused the event (kept with its outbox row); the message carries its publish span's.
   */
  async publish(routingKey: string, envelope: EventEnvelope | string, ordered = false, traceparent?: string | null): Promise<void> {
    const body = Buffer.from(typeof envelope === 'string' ? envelope : JSON.stringify(envelope));
    const parsed = typeof envelope === 'string' ? undefined : envelope;
    const span = this.tracing.span(`publish ${routingKey}`, SpanKind.PRODUCER, contextOf(traceparent), () => ({
      'messaging.system': 'rabbitmq', 'messaging.operation.type': 'send', 'messaging.destination.name': this.exchange,
      'messaging.rabbitmq.destination.routing_key': routingKey, ...(parsed ? { 'messaging.message.id': parsed.id } : {}),
    }));
    const headers = injectHeaders(span, {});
    const options = {
      persistent: true,
      contentType: 'application/json',
      headers,
      ...(parsed ? { messageId: parsed.id, type: parsed.type, timestamp: Math.floor(Date.parse(parsed.occurredAt) / 1000) } : {}),
    };
    const published = this.channel.publish(this.exchange, routingKey, body, options);
    // Through the default exchange: the routing key travels as a header, where the consumer reads it.
    const queued = ordered ? this.channel.sendToQueue(this.orderedQueue, body, { ...options, headers: { ...headers, 'x-routing-key': routingKey } }) : undefined;
    try {
      await Promise.all([published, queued]);
      span.end();
    } catch (err) {
      endWithError(span, (err as Error).message);
      throw err;
    }
  }
}

import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import amqp, { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { BrokerNames, EventEnvelope } from '@app/contracts';
import type { AppLogger } from '../logging';
import { assertConsumerQueue, assertEventExchanges, ConsumerQueueSpec } from './topology';

/** What a handler decides for a delivered message (golevelup style: always explicit). */
export type HandlerOutcome = 'ack' | 'dead-letter' | 'requeue';

export type EventHandler = (envelope: EventEnvelope, message: ConsumeMessage) => Promise<HandlerOutcome>;

/**
 * One managed AMQP connection per process. amqp-connection-manager reconnects after a
 * broker restart and re-runs each channel's setup (topology, consumers).
 */
export class AmqpBroker {
  private readonly channels: ChannelWrapper[] = [];

  private constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly names: BrokerNames,
    private readonly logger: AppLogger,
  ) {}

  static async connect(url: string, names: BrokerNames, logger: AppLogger, timeoutMs = 10_000): Promise<AmqpBroker> {
    const connection = amqp.connect([url], { heartbeatIntervalInSeconds: 15, reconnectTimeInSeconds: 1 });
    connection.on('disconnect', ({ err }) => logger.warn({ err: err?.message }, 'AMQP connection lost; reconnecting'));
    connection.on('connect', () => logger.info('AMQP connected'));
    await connection.connect({ timeout: timeoutMs });
    return new AmqpBroker(connection, names, logger);
  }

  /**
   * A confirm channel for publishing events: `publish` resolves once the broker has them,
   * and rejects when it has not confirmed them within `publishTimeoutMs` (for instance
   * while the broker is unreachable), instead of waiting for a reconnection forever.
   */
  createEventPublisher(publishTimeoutMs = 5_000): EventPublisher {
    const channel = this.connection.createChannel({
      json: false,
      confirm: true,
      publishTimeout: publishTimeoutMs,
      setup: (ch: ConfirmChannel) => assertEventExchanges(ch, this.names),
    });
    this.channels.push(channel);
    return new EventPublisher(channel, this.names.eventsExchange);
  }

  /** Consumes a durable queue with manual acknowledgement; rejected messages are dead-lettered. */
  async consumeEvents(spec: ConsumerQueueSpec, prefetch: number, handler: EventHandler): Promise<void> {
    const channel = this.connection.createChannel({
      json: false,
      setup: async (ch: ConfirmChannel) => {
        await assertConsumerQueue(ch, this.names, spec);
        await ch.prefetch(prefetch);
        await ch.consume(spec.queue, (msg) => {
          if (msg) void this.dispatch(ch, msg, handler);
        }, { noAck: false });
      },
    });
    this.channels.push(channel);
    await channel.waitForConnect();
  }

  private async dispatch(ch: ConfirmChannel, msg: ConsumeMessage, handler: EventHandler): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = JSON.parse(msg.content.toString('utf8')) as EventEnvelope;
    } catch {
      this.logger.error({ routingKey: msg.fields.routingKey }, 'unparseable event; dead-lettering');
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
    try {
      if (outcome === 'ack') ch.ack(msg);
      else ch.nack(msg, false, outcome === 'requeue');
    } catch (err) {
      // The channel closed under us; the broker redelivers the message.
      this.logger.warn({ err, eventId: envelope?.id }, 'could not settle message');
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.channels.map((c) => c.close().catch(() => undefined)));
    await this.connection.close().catch(() => undefined);
  }
}

export class EventPublisher {
  constructor(private readonly channel: ChannelWrapper, private readonly exchange: string) {}

  /** Resolves when the broker has confirmed the (persistent) message. */
  async publish(routingKey: string, envelope: EventEnvelope): Promise<void> {
    await this.channel.publish(this.exchange, routingKey, Buffer.from(JSON.stringify(envelope)), {
      persistent: true,
      contentType: 'application/json',
      messageId: envelope.id,
      type: envelope.type,
      timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
    });
  }
}

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, AmqpBroker, AppLogger, HandlerOutcome } from '@app/common';
import { brokerNames, EventEnvelope } from '@app/contracts';
import type { ConsumeMessage } from 'amqplib';
import { DispatcherConfig } from './config';
import { classify, ROOM_EVENT_BINDINGS } from './room-events';

export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');

/**
 * Consumes room events from the dispatcher's durable queue with explicit acks. For now
 * each event is logged; webhook delivery builds on this consumer.
 */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly broker: AmqpBroker,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const names = brokerNames(this.config.BROKER_NAMESPACE);
    await this.broker.consumeEvents(
      { queue: names.dispatcherEventsQueue, deadLetterQueue: names.dispatcherDeadLetterQueue, bindings: ROOM_EVENT_BINDINGS },
      this.config.EVENT_PREFETCH,
      (envelope, message) => this.handle(envelope, message),
    );
    this.logger.info({ queue: names.dispatcherEventsQueue }, 'consuming room events');
  }

  async handle(envelope: EventEnvelope, message: ConsumeMessage): Promise<HandlerOutcome> {
    const routingKey = message.fields.routingKey;
    const event = classify(routingKey, envelope);
    if (event.kind === 'unknown') {
      this.logger.warn({ routingKey, reason: event.reason }, 'event dead-lettered');
      return 'dead-letter';
    }
    const payload = event.envelope.payload as { room?: { id?: number } };
    this.logger.info({
      eventId: event.envelope.id,
      routingKey,
      webhookEvent: event.webhookEvent,
      roomId: payload.room?.id,
      redelivered: message.fields.redelivered,
    }, 'event received');
    return 'ack';
  }

  async onApplicationShutdown(): Promise<void> {
    await this.broker.close();
  }
}

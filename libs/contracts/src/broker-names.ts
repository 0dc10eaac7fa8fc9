/**
 * Names of the broker objects, derived from one namespace so that test runs (and several
 * deployments on one broker) never collide.
 */
export interface BrokerNames {
  /** Topic exchange every domain event is published to. */
  eventsExchange: string;
  /** Exchange that rejected events are dead-lettered to. */
  deadLetterExchange: string;
  /** Durable queue the rooms service serves commands from. */
  roomsCommandQueue: string;
  /** Durable queue the webhook dispatchers serve their commands from (the delivery log). */
  dispatcherCommandQueue: string;
  /** Durable queue the webhook dispatcher consumes events from. */
  dispatcherEventsQueue: string;
  /** Where the dispatcher's rejected events end up. */
  dispatcherDeadLetterQueue: string;
  /**
   * The room events again, for the ordered deliveries: one replica at a time consumes it
   * (single active consumer), in the order the events reached the exchange.
   */
  dispatcherOrderedEventsQueue: string;
  dispatcherOrderedDeadLetterQueue: string;
  /** Direct exchange of webhook delivery jobs: the deliveries queue and what the delay queues dead-letter to. */
  deliveriesExchange: string;
  /** Durable queue of webhook delivery jobs (one per event and registration, and per retry). */
  deliveriesQueue: string;
  /** Where unreadable delivery jobs end up. */
  deliveriesDeadLetterQueue: string;
  /** Prefix of the delay queues, one per tier of the retry schedule: `<prefix>.<tier ms>ms`. */
  deliveryDelayQueuePrefix: string;
  /** Where guard copies of attempts in flight (and deferred jobs) wait before going back to the deliveries queue. */
  deliveryInFlightQueue: string;
}

export function brokerNames(namespace: string): BrokerNames {
  return {
    eventsExchange: `${namespace}.events`,
    deadLetterExchange: `${namespace}.events.dead-letter`,
    roomsCommandQueue: `${namespace}.rooms.commands`,
    dispatcherCommandQueue: `${namespace}.webhook-dispatcher.commands`,
    dispatcherEventsQueue: `${namespace}.webhook-dispatcher.events`,
    dispatcherDeadLetterQueue: `${namespace}.webhook-dispatcher.events.dead-letter`,
    dispatcherOrderedEventsQueue: `${namespace}.webhook-dispatcher.ordered-events`,
    dispatcherOrderedDeadLetterQueue: `${namespace}.webhook-dispatcher.ordered-events.dead-letter`,
    deliveriesExchange: `${namespace}.webhook-deliveries`,
    deliveriesQueue: `${namespace}.webhook-dispatcher.deliveries`,
    deliveriesDeadLetterQueue: `${namespace}.webhook-dispatcher.deliveries.dead-letter`,
    deliveryDelayQueuePrefix: `${namespace}.webhook-dispatcher.deliveries.delay`,
    deliveryInFlightQueue: `${namespace}.webhook-dispatcher.deliveries.in-flight`,
  };
}

/** The delay queue of one tier of the retry schedule (a tier holds similar delays). */
export function deliveryDelayQueue(names: BrokerNames, tierMs: number): string {
  return `${names.deliveryDelayQueuePrefix}.${tierMs}ms`;
}

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
  /** Durable queue the webhook dispatcher consumes events from. */
  dispatcherEventsQueue: string;
  /** Where the dispatcher's rejected events end up. */
  dispatcherDeadLetterQueue: string;
}

export function brokerNames(namespace: string): BrokerNames {
  return {
    eventsExchange: `${namespace}.events`,
    deadLetterExchange: `${namespace}.events.dead-letter`,
    roomsCommandQueue: `${namespace}.rooms.commands`,
    dispatcherEventsQueue: `${namespace}.webhook-dispatcher.events`,
    dispatcherDeadLetterQueue: `${namespace}.webhook-dispatcher.events.dead-letter`,
  };
}

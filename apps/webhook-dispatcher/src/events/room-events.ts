import type { ConsumerQueueSpec } from '@app/common';
import { BrokerNames, EventEnvelope, isEventEnvelope, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENT_SOURCES, WebhookEventName } from '@app/contracts';

const EVENT_OF_ROUTING_KEY: ReadonlyMap<string, WebhookEventName> = new Map(
  WEBHOOK_EVENT_NAMES.map((name) => [WEBHOOK_EVENT_SOURCES[name].routingKey, name]),
);

/** The webhook event a domain event's routing key stands for, or null. */
export function eventNameOf(routingKey: string): WebhookEventName | null {
  return EVENT_OF_ROUTING_KEY.get(routingKey) ?? null;
}

/** Binding patterns: every room event of version 1. */
export const ROOM_EVENT_BINDINGS = ['room.*.v2'];

/** The dispatcher's queue of room events, and where the events it rejects go. */
export const roomEventsQueue = (names: BrokerNames): ConsumerQueueSpec => ({
  queue: names.dispatcherEventsQueue, deadLetterQueue: names.dispatcherDeadLetterQueue, bindings: ROOM_EVENT_BINDINGS,
});

export type Classified =
  | { kind: 'room-event'; webhookEvent: WebhookEventName; envelope: EventEnvelope }
  | { kind: 'unknown'; reason: string };

/** Decides what a delivered message is; unknown or malformed ones are dead-lettered. */
export function classify(routingKey: string, body: unknown): Classified {
  if (!isEventEnvelope(body)) return { kind: 'unknown', reason: 'not an event envelope' };
  const webhookEvent = eventNameOf(routingKey);
  if (!webhookEvent) return { kind: 'unknown', reason: `no webhook event for routing key ${routingKey}` };
  if (`${body.type}.v${body.version}` !== routingKey) return { kind: 'unknown', reason: 'envelope type does not match routing key' };
  return { kind: 'room-event', webhookEvent, envelope: body };
}

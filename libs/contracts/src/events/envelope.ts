/**
 * Every domain event travels in this envelope on the topic exchange. The routing key is
 * `<aggregate>.<event>.v<version>`, so a consumer binds to exactly the versions it knows.
 */
export interface EventEnvelope<TPayload = unknown> {
  /** Unique event id (UUID); consumers use it to de-duplicate redeliveries. */
  id: string;
  /** Routing key without the version suffix, e.g. `room.created`. */
  type: string;
  version: number;
  /** ISO-8601 UTC. */
  occurredAt: string;
  payload: TPayload;
  /**
   * The webhook registrations' version when the event was written (rooms service events):
   * every registration change that answered before the event was caused is at or below it.
   * A dispatcher whose index is older reloads before matching the event.
   */
  registrationsVersion?: number;
  /**
   * Room events (version 2 on): the event's place among its room's events, 1, 2, 3, ... in
   * the order their changes committed, with no gap. A consumer checks order and detects a
   * loss with it; a live connection resumes from it.
   */
  sequence?: number;
}

export interface EventDefinition<TPayload> {
  type: string;
  version: number;
  routingKey: string;
  /** Room events: the room whose sequence the event takes. */
  roomIdOf?(payload: TPayload): number;
  /** Type-only marker so that `EventPayload<typeof X>` works. */
  readonly __payload?: TPayload;
}

export function defineEvent<TPayload>(type: string, version: number): EventDefinition<TPayload> {
  return { type, version, routingKey: `${type}.v${version}` };
}

/** An event of one room: published in its room's order, with the room's next `sequence`. */
export function defineRoomEvent<TPayload extends { room: { id: number } }>(type: string, version: number): EventDefinition<TPayload> {
  return { ...defineEvent<TPayload>(type, version), roomIdOf: (payload) => payload.room.id };
}

export type EventPayload<D> = D extends EventDefinition<infer P> ? P : never;

export function isEventEnvelope(value: unknown): value is EventEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.type === 'string' && typeof v.version === 'number' &&
    typeof v.occurredAt === 'string' && typeof v.payload === 'object' && v.payload !== null;
}

import { randomUUID } from 'node:crypto';
import { EventDefinition, EventEnvelope } from '@app/contracts';
import { EntityManager } from 'typeorm';

/** Builds the envelope for an event about to be written. */
export function buildEnvelope<P>(definition: EventDefinition<P>, payload: P, now = new Date()): EventEnvelope<P> {
  return { id: randomUUID(), type: definition.type, version: definition.version, occurredAt: now.toISOString(), payload };
}

/**
 * Writes an event to the outbox inside the caller's transaction: the event exists if and
 * only if the change it describes was committed.
 */
export async function appendToOutbox<P>(manager: EntityManager, definition: EventDefinition<P>, payload: P): Promise<EventEnvelope<P>> {
  const envelope = buildEnvelope(definition, payload);
  await manager.query('INSERT INTO outbox (event_id, routing_key, envelope) VALUES ($1, $2, $3)', [
    envelope.id, definition.routingKey, JSON.stringify(envelope),
  ]);
  return envelope;
}

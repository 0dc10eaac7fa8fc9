import { randomUUID } from 'node:crypto';
import { EventDefinition, EventEnvelope } from '@app/contracts';
import { EntityManager } from 'typeorm';

/** An event about to be written: its routing key and envelope. */
export interface StagedEvent {
  routingKey: string;
  envelope: EventEnvelope;
}

/** Builds the envelope for an event about to be written. */
export function stageEvent<P>(definition: EventDefinition<P>, payload: P, now = new Date()): StagedEvent {
  return {
    routingKey: definition.routingKey,
    envelope: { id: randomUUID(), type: definition.type, version: definition.version, occurredAt: now.toISOString(), payload },
  };
}

/**
 * Writes events to the outbox inside the caller's transaction, in one statement: the
 * events exist if and only if the change they describe was committed. `created_at` is the
 * time of this write, just before the commit (not the column default now(), the start of
 * a transaction that may have waited long for a lock): the sweeper leaves rows younger
 * than its sweep age to the process that is publishing them.
 */
export async function insertOutbox(manager: EntityManager, events: StagedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await manager.query(
    `INSERT INTO outbox (event_id, routing_key, envelope, created_at)
     SELECT e.*, clock_timestamp() FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS e`,
    [events.map((e) => e.envelope.id), events.map((e) => e.routingKey), events.map((e) => JSON.stringify(e.envelope))],
  );
}

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
 *
 * The same statement stamps each envelope with the registrations' version (see the
 * registrations_version migration): no round trip of its own, read in the statement's
 * snapshot (or this transaction's own change of webhooks), so an event caused after a
 * registration change answered carries that change's version or a later one. The stamp is
 * set on the staged envelopes too (they are published from memory).
 */
export async function insertOutbox(manager: EntityManager, events: StagedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows: Array<{ version: string }> = await manager.query(
    `WITH v AS (SELECT value FROM registrations_version)
     INSERT INTO outbox (event_id, routing_key, envelope, created_at)
     SELECT e.id, e.routing_key, e.envelope || jsonb_build_object('registrationsVersion', v.value), clock_timestamp()
       FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS e(id, routing_key, envelope), v
     RETURNING envelope->>'registrationsVersion' AS version`,
    [events.map((e) => e.envelope.id), events.map((e) => e.routingKey), events.map((e) => JSON.stringify(e.envelope))],
  );
  const stamp = Number(rows[0].version);
  for (const e of events) e.envelope.registrationsVersion = stamp;
}

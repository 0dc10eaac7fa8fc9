import { randomUUID } from 'node:crypto';
import { EventDefinition, EventEnvelope } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { preparedQuery } from '@app/common';

/** Ids of the commands a commit applies, with their replies (kept for redeliveries: see UnitOfWork). */
export interface AppliedCommands {
  ids: string[];
  /** JSON text of each reply. */
  replies: string[];
}

const APPLIED_INSERT = 'INSERT INTO applied_commands (command_id, reply) SELECT * FROM unnest($1::uuid[], $2::jsonb[])';

/** An INSERT run as a CTE of the outbox's statement (see insertOutbox), the value of its one parameter and how many rows it writes. */
export interface StagedInsert {
  sql: string;
  value: unknown;
  count: number;
}

/** An event about to be written: its routing key and envelope. */
export interface StagedEvent {
  routingKey: string;
  envelope: EventEnvelope;
  /** The room whose sequence the event takes; null for events of no room. */
  roomId: number | null;
  /** Its outbox id once written: its place in the order events are published. */
  position?: string;
  /** The span of the command that caused it: kept with its row, so that its publishing (even by a sweep) belongs to that trace. */
  traceparent?: string;
  /**
   * Matched against the registrations as they were before its own transaction changed them:
   * room_deleted (and the exits it causes) still reach the room's webhooks that the deletion
   * removes. Stamped with the version before that transaction's change (see insertOutbox).
   */
  registrationsBefore?: boolean;
}

/** How an event is staged: `registrations: 'before'` sets StagedEvent.registrationsBefore. */
export interface StageOptions {
  registrations?: 'before';
}

/** Builds the envelope for an event about to be written. */
export function stageEvent<P>(definition: EventDefinition<P>, payload: P, now = new Date(), traceparent?: string, options: StageOptions = {}): StagedEvent {
  return {
    routingKey: definition.routingKey,
    envelope: { id: randomUUID(), type: definition.type, version: definition.version, occurredAt: now.toISOString(), payload },
    roomId: definition.roomIdOf ? definition.roomIdOf(payload) : null,
    traceparent,
    ...(options.registrations === 'before' ? { registrationsBefore: true } : {}),
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
 * set on the staged envelopes too. An event staged `registrationsBefore` takes the version
 * before this transaction's own change of registrations (the function that advances the
 * version leaves it in a transaction-local setting: equal to the row's value only in the
 * transaction that advanced it), so the forms this transaction removed are still in force
 * for it. In that snapshot too, each room event is marked `ordered`
 * when its room has an enabled ordered webhook: the relay sends it to the ordered deliveries'
 * queue as well (see OrderedEventRouting1764700000000). For an event staged
 * `registrationsBefore`, the ordered webhooks this transaction removed count too (read from
 * `webhooks_removed` at its own version): a deleted room's ordered webhooks get its
 * room_deleted and room_exit events, as its concurrent ones do.
 *
 * Each staged event learns its outbox id (`position`): the relay publishes in id order, and
 * a message stored with its event is placed in history by it. Such rows (`staged`, see
 * UnitOfWork.record) are written by the same statement, taking their events' ids there:
 * the caller writes nothing after it, so the outbox's lock window is this statement and the
 * COMMIT (the relay's read waits for transactions holding this insert).
 */
export async function insertOutbox(
  manager: EntityManager,
  events: StagedEvent[],
  applied?: AppliedCommands,
  /** Rows written with the events, in the same statement (see StagedRows): given the events' CTE and a parameter number. */
  staged: Array<(events: string, param: number) => StagedInsert> = [],
): Promise<void> {
  if (events.length === 0) {
    // Staged rows are told of by events (a message by its event): none without.
    if (staged.length > 0) throw new Error('rows staged without the events that tell of them');
    if (applied && applied.ids.length > 0) await preparedQuery(manager, APPLIED_INSERT, [applied.ids, applied.replies]);
    return;
  }
  // The commands' ids and the staged rows go in the same statement (CTEs): one round trip
  // for the whole commit's writes.
  const params: unknown[] = [events.map((e) => e.envelope.id), events.map((e) => e.routingKey), events.map((e) => JSON.stringify(e.envelope)),
    events.map((e) => e.roomId), events.map((e) => e.traceparent ?? null), events.map((e) => e.registrationsBefore === true)];
  const ctes: string[] = [];
  if (applied && applied.ids.length > 0) {
    ctes.push(`a AS (${APPLIED_INSERT.replace('$1', `$${params.push(applied.ids)}`).replace('$2', `$${params.push(applied.replies)}`)})`);
  }
  ctes.push(`v AS (SELECT value, CASE WHEN current_setting('chat.registrations_version', true) = value::text THEN value - 1 ELSE value END AS before
               FROM registrations_version)`,
    `o AS (SELECT coalesce(array_agg(room_id) FILTER (WHERE room_id IS NOT NULL), '{}') AS rooms, coalesce(bool_or(room_id IS NULL), false) AS every_room
             FROM webhooks WHERE delivery = 'ordered' AND enabled)`,
    // The ordered webhooks this transaction removed (their forms ended at its own version;
    // none when it changed no webhook): still in force for an event staged `registrationsBefore`.
    `ob AS (SELECT coalesce(array_agg(room_id) FILTER (WHERE room_id IS NOT NULL), '{}') AS rooms, coalesce(bool_or(room_id IS NULL), false) AS every_room
              FROM webhooks_removed
             WHERE removed_version = nullif(current_setting('chat.registrations_version', true), '')::bigint AND delivery = 'ordered' AND enabled)`,
    // WITH ORDINALITY and ORDER BY: ids follow the order the events were staged in.
    `ev AS (INSERT INTO outbox (event_id, routing_key, envelope, room_id, created_at, ordered, traceparent)
            SELECT e.id, e.routing_key, e.envelope || jsonb_build_object('registrationsVersion', CASE WHEN e.before THEN v.before ELSE v.value END),
                   e.room_id, clock_timestamp(),
                   e.room_id IS NOT NULL AND (o.every_room OR e.room_id = ANY (o.rooms) OR (e.before AND (ob.every_room OR e.room_id = ANY (ob.rooms)))),
                   e.traceparent
              FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::int[], $5::text[], $6::bool[])
                   WITH ORDINALITY AS e(id, routing_key, envelope, room_id, traceparent, before, n), v, o, ob
             ORDER BY e.n
            RETURNING id, event_id, envelope->>'registrationsVersion' AS version)`);
  // Each staged INSERT answers how many rows it wrote: a row whose event is not among these
  // would be dropped by its join, and must fail the commit instead.
  const expected = staged.map((rows, i) => {
    const { sql, value, count } = rows('ev', params.length + 1);
    params.push(value);
    ctes.push(`r${i} AS (${sql} RETURNING 1)`);
    return count;
  });
  const counts = expected.map((_, i) => `(SELECT count(*) FROM r${i})::int AS r${i}`).join(', ');
  const rows: Array<{ id: string; event_id: string; version: string } & Record<string, number>> = await preparedQuery(manager,
    `WITH ${ctes.join(',\n     ')}\n     SELECT id, event_id, version${counts ? `, ${counts}` : ''} FROM ev`, params);
  expected.forEach((count, i) => {
    if (rows[0][`r${i}`] !== count) throw new Error(`${count} staged rows, ${rows[0][`r${i}`]} written with their events: a row's event is missing`);
  });
  const written = new Map(rows.map((r) => [r.event_id, r]));
  for (const e of events) {
    const row = written.get(e.envelope.id)!;
    e.envelope.registrationsVersion = Number(row.version);
    e.position = row.id;
  }
}

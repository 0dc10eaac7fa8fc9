/** An outbox row as the relay reads it, in id order. */
export interface OutboxRow {
  id: string;
  /** Null for events of no room (users, tokens, webhooks): they take no sequence. */
  room_id: number | null;
  routing_key: string;
  envelope: string;
  /** Also for the ordered deliveries' queue (see insertOutbox). */
  ordered?: boolean;
  /** The span of the command that caused it (see StagedEvent). */
  traceparent?: string | null;
}

export interface Sequenced {
  id: string;
  routingKey: string;
  /** The envelope to publish: a room event with its `sequence`. */
  envelope: Record<string, unknown> & { id: string; occurredAt: string; type: string };
  /** Also for the ordered deliveries' queue. */
  ordered: boolean;
  traceparent: string | null;
}

export interface SequencedBatch {
  events: Sequenced[];
  /** Each room's last sequence once the batch is out (only rooms the batch touched). */
  lastSeq: Map<number, number>;
}

/**
 * Gives each room event of a batch (rows in id order, a prefix of what remains in the
 * outbox) its room's next sequence numbers, counting on from the last one published.
 * Deterministic: rows stay in the outbox until they are published and their room's last
 * sequence is advanced in the same statement that deletes them, so a relay that takes
 * over after a crash gives a row it publishes again the number it had.
 */
export function sequenceBatch(rows: OutboxRow[], lastPublished: (roomId: number) => number): SequencedBatch {
  const lastSeq = new Map<number, number>();
  const events = rows.map((row) => {
    const envelope = JSON.parse(row.envelope) as Sequenced['envelope'];
    if (row.room_id !== null) {
      const seq = (lastSeq.get(row.room_id) ?? lastPublished(row.room_id)) + 1;
      lastSeq.set(row.room_id, seq);
      envelope.sequence = seq;
    }
    return { id: row.id, routingKey: row.routing_key, envelope, ordered: row.ordered === true, traceparent: row.traceparent ?? null };
  });
  return { events, lastSeq };
}

/** Rooms of a batch whose last published sequence is not known yet (to be read once). */
export function roomsToLoad(rows: OutboxRow[], known: ReadonlyMap<number, number>): number[] {
  return [...new Set(rows.flatMap((r) => (r.room_id !== null && !known.has(r.room_id) ? [r.room_id] : [])))];
}

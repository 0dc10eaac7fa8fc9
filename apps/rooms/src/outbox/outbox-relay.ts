import { AppLogger, EventPublisher, preparedStatement } from '@app/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { StagedEvent } from './outbox';
import { OutboxRow, roomsToLoad, sequenceBatch } from './room-sequence';

export interface OutboxRelayOptions {
  /** How often a standby replica tries to become the relay, and the relay looks for rows nobody told it of. */
  pollMs: number;
  batchSize?: number;
  /** Longest a replyAfterPublish command waits for its events to be published. */
  publishWaitMs?: number;
  /** How long published room events stay in `room_events`, for live connections to resume from (LIVE_EVENTS_RETENTION). */
  eventRetentionMs?: number;
  /**
   * Where this process has no publisher (the CLI): whether a replyAfterPublish command is to
   * wait for the running service's relay to publish its events. Asked only when there are
   * some, so that the CLI opens the broker, to tell, only then. Without it, no wait.
   */
  awaitRelay?: () => Promise<boolean>;
}

/** LIVE_EVENTS_RETENTION's default: the 24 hours a live connection may resume within, and an hour's margin. */
export const DEFAULT_EVENT_RETENTION_MS = 25 * 3_600_000;

/** A fixed key, the rooms service's own (the dispatcher may share the database and has 7_411_902_002): its holder is the relay. */
const RELAY_LOCK_KEY = 7_411_902_011;
/** Committing replicas wake the relay on this channel (after their commit, never inside it). */
export const OUTBOX_CHANNEL = 'rooms_outbox';

/**
 * Moves committed events to the broker, each room's in the order their changes committed,
 * numbered 1, 2, 3, ... per room (the envelope's `sequence`).
 *
 * One replica at a time is the relay: it holds a session advisory lock on a connection of
 * its own (the others try again every poll; the lock goes with the connection, so a dead
 * relay is replaced within a poll). It reads the outbox in id order under
 * `LOCK TABLE outbox IN SHARE MODE`: the lock waits for the transactions writing to the
 * outbox (their INSERT is their last statement before COMMIT) and holds new ones back only
 * for the read, so no transaction can still commit an id below those read; ids are taken
 * while a transaction holds the room it changes, so for changes that conflict, id order is
 * commit order. It publishes the rows in id order on one confirm channel, then deletes them,
 * advances each room's last sequence (`room_sequences`, written only by the relay) and logs
 * the room events as published (`room_events`, what live connections resume from) in one
 * statement. The request path never touches `room_sequences` or `room_events`.
 *
 * The process that commits wakes the relay: in-process when it is the relay, else with a
 * NOTIFY after its commit (coalesced: one in flight). A poll is the safety net, and what
 * publishes the CLI's events (it has no broker) and a broker outage's backlog, which goes
 * out, in order, before anything newer: nothing is published but from the table.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private stopped = true;
  private polling?: Promise<void>;
  /** The relay's own connection (lock, LISTEN, reads and deletes); a standby keeps one too. */
  private client?: Client;
  private leading = false;
  private dirty = false;
  private running?: Promise<void>;
  /** Last published sequence of the rooms seen since this replica became the relay. */
  private readonly lastSeq = new Map<number, number>();
  private notifying?: Promise<void>;
  private notifyAgain?: Promise<void>;
  private lastCleanup = 0;
  private lastPrune = 0;

  constructor(
    private readonly db: DataSource,
    /** Null where no broker could be reached (the CLI): it never relays, it only wakes the relay. */
    private readonly publisher: EventPublisher | null,
    private readonly logger: AppLogger,
    private readonly options: OutboxRelayOptions,
  ) {}

  start(): void {
    if (!this.stopped || !this.publisher) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.running;
    await this.notifying;
    this.dropClient();
  }

  /** Whether this replica is the relay now. */
  isRelay(): boolean {
    return this.leading;
  }

  /**
   * Events just committed by this process: wake the relay. Callers need not wait (the reply
   * does not depend on it); the CLI does, before it exits.
   */
  committed(events: StagedEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    if (this.leading) {
      this.kick();
      return Promise.resolve();
    }
    return this.notifyRelay();
  }

  /**
   * Resolves once the events are published (their rows gone), or after `publishWaitMs`
   * (they then wait for the relay, as after a failed publish). The CLI waits only when its
   * `awaitRelay` says so (the broker is reachable).
   */
  async published(events: StagedEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (!this.publisher && !(await this.options.awaitRelay?.().catch(() => false))) return;
    const ids = events.map((e) => e.envelope.id);
    const until = Date.now() + (this.options.publishWaitMs ?? 5_000);
    for (let wait = 2; Date.now() < until; wait = Math.min(wait * 2, 50)) {
      try {
        const [{ left }] = await this.db.query('SELECT count(*)::int AS left FROM outbox WHERE event_id = ANY($1::uuid[])', [ids]);
        if (left === 0) return;
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  private notifyRelay(): Promise<void> {
    if (this.notifying) {
      // The NOTIFY in flight may have been sent before this commit: one more after it.
      this.notifyAgain ??= this.notifying.then(() => {
        this.notifyAgain = undefined;
        return this.notifyRelay();
      });
      return this.notifyAgain;
    }
    const sent = this.db.query(`NOTIFY ${OUTBOX_CHANNEL}`).then(
      () => undefined,
      (err) => this.logger.warn({ err: (err as Error).message }, 'could not wake the outbox relay; its poll will find the events'),
    );
    this.notifying = sent.finally(() => {
      this.notifying = undefined;
    });
    return this.notifying;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        this.schedule(this.options.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      if (!this.leading) await this.tryToLead();
      if (!this.leading) return;
      this.kick();
      await this.running;
      if (Date.now() - this.lastCleanup > 60_000) {
        // Applied command ids are kept for a day: long enough for any redelivery.
        await this.db.query(`DELETE FROM applied_commands WHERE applied_at < now() - interval '1 day'`);
        this.lastCleanup = Date.now();
      }
      // Once a minute, or sooner for a retention shorter than that (tests use seconds).
      const retentionMs = this.options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
      if (Date.now() - this.lastPrune > Math.min(60_000, retentionMs)) {
        await this.db.query(`DELETE FROM room_events WHERE published_at < now() - make_interval(secs => $1)`, [retentionMs / 1000]);
        this.lastPrune = Date.now();
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'outbox relay: database unreachable; will retry');
      this.dropClient();
    }
  }

  private async tryToLead(): Promise<void> {
    if (!this.client) {
      const client = new Client({ connectionString: (this.db.options as PostgresConnectionOptions).url, application_name: 'rooms outbox relay' });
      client.on('error', (err) => {
        this.logger.warn({ err: err.message }, 'outbox relay connection lost');
        if (this.client === client) this.dropClient();
      });
      client.on('notification', () => this.kick());
      this.client = client;
      await client.connect();
    }
    const { rows } = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [RELAY_LOCK_KEY]);
    if (!rows[0].locked || this.stopped) return;
    await this.client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    // Another relay may have published since this replica last did.
    this.lastSeq.clear();
    this.leading = true;
    this.logger.info('this replica relays the outbox');
  }

  private dropClient(): void {
    this.leading = false;
    this.lastSeq.clear();
    const client = this.client;
    this.client = undefined;
    // Ending the connection releases the lock: another replica takes over.
    void client?.end().catch(() => undefined);
  }

  /** Publish what is committed, now (or right after the batch in progress). */
  private kick(): void {
    if (!this.leading || this.stopped) return;
    this.dirty = true;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    while (this.dirty && this.leading && !this.stopped && this.publisher?.isConnected()) {
      this.dirty = false;
      const client = this.client!;
      try {
        const sent = await this.relayBatch(client);
        if (sent === (this.options.batchSize ?? 500)) this.dirty = true;
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'outbox relay could not publish; will retry');
        this.lastSeq.clear();
        if (!(err as { publishFailed?: boolean }).publishFailed && this.client === client) this.dropClient();
        return;
      }
    }
  }

  /** One batch: read in id order under the share lock, number, publish, then delete and advance. */
  private async relayBatch(client: Client): Promise<number> {
    const limit = this.options.batchSize ?? 500;
    // One round trip; a read-only transaction (its commit writes nothing).
    const results = await client.query(`BEGIN; LOCK TABLE outbox IN SHARE MODE;
      SELECT id, room_id, routing_key, envelope::text AS envelope, ordered, traceparent FROM outbox ORDER BY id LIMIT ${Number(limit)}; COMMIT`) as unknown as Array<{ rows: OutboxRow[] }>;
    const rows = results[2].rows;
    if (rows.length === 0) return 0;
    const unknown = roomsToLoad(rows, this.lastSeq);
    if (unknown.length > 0) {
      const known = await client.query<{ room_id: number; last_seq: string }>(preparedStatement(
        'SELECT room_id, last_seq FROM room_sequences WHERE room_id = ANY($1::int[])', [unknown]));
      for (const r of unknown) this.lastSeq.set(r, 0);
      for (const r of known.rows) this.lastSeq.set(r.room_id, Number(r.last_seq));
    }
    const batch = sequenceBatch(rows, (room) => this.lastSeq.get(room)!);
    try {
      // One channel: the broker takes them in this order.
      await Promise.all(batch.events.map((e) => this.publisher!.publish(e.routingKey, e.envelope as never, e.ordered, e.traceparent)));
    } catch (err) {
      throw Object.assign(err as Error, { publishFailed: true });
    }
    const roomEvents = batch.events.filter((e) => typeof e.envelope.sequence === 'number');
    // The log takes the envelopes from the rows being deleted (they are not sent again),
    // stamped with the sequence they were published with. DO NOTHING: a relay that took over
    // after a crash publishes a row again with the number it had (see sequenceBatch).
    await client.query(preparedStatement(
      `WITH published AS (DELETE FROM outbox WHERE id = ANY($1::bigint[]) RETURNING id, room_id, routing_key, envelope),
            logged AS (INSERT INTO room_events (room_id, seq, routing_key, envelope)
              SELECT p.room_id, s.seq, p.routing_key, p.envelope || jsonb_build_object('sequence', s.seq)
                FROM published p JOIN unnest($4::bigint[], $5::bigint[]) AS s(id, seq) ON s.id = p.id
              ON CONFLICT (room_id, seq) DO NOTHING)
       INSERT INTO room_sequences (room_id, last_seq) SELECT * FROM unnest($2::int[], $3::bigint[])
       ON CONFLICT (room_id) DO UPDATE SET last_seq = GREATEST(room_sequences.last_seq, EXCLUDED.last_seq)`,
      [rows.map((r) => r.id), [...batch.lastSeq.keys()], [...batch.lastSeq.values()],
        roomEvents.map((e) => e.id), roomEvents.map((e) => e.envelope.sequence)],
    ));
    // Rooms long idle are read again when they next speak: the memory stays bounded.
    if (this.lastSeq.size > 100_000) this.lastSeq.clear();
    for (const [room, seq] of batch.lastSeq) this.lastSeq.set(room, seq);
    return rows.length;
  }
}

import type { AppLogger, EventPublisher } from '@app/common';
import { DataSource } from 'typeorm';
import { StagedEvent } from './outbox';

interface OutboxRow { id: string; routing_key: string; envelope: string }

export interface OutboxRelayOptions {
  /** How often the sweeper looks for events left behind. */
  pollMs: number;
  /** Rows younger than this belong to the process that wrote them (it publishes them itself). */
  sweepAgeMs: number;
  batchSize?: number;
}

/**
 * Moves committed events to the broker. The process that commits a change publishes its
 * events at once from memory (no poll tick, no read back) with publisher confirms, then
 * deletes their rows in one statement. A sweeper publishes what a crash or a broker outage
 * left behind: rows older than `sweepAgeMs`, claimed with FOR UPDATE SKIP LOCKED so that
 * replicas never publish the same row at once. Nothing committed is lost; an event may
 * be published twice (consumers de-duplicate on the envelope id).
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopped = true;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: DataSource,
    /** Null where no broker could be reached (the CLI): events wait for a sweeper. */
    private readonly publisher: EventPublisher | null,
    private readonly logger: AppLogger,
    private readonly options: OutboxRelayOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
    await this.sweeping;
  }

  /**
   * Publishes events just committed by this process; what fails stays for the sweeper.
   * Callers need not wait (the reply does not depend on it); the CLI does, before it exits.
   */
  publishCommitted(events: StagedEvent[]): Promise<void> {
    if (events.length === 0 || !this.publisher?.isConnected()) return Promise.resolve();
    const work = this.publishAndDelete(events).catch((err) => {
      this.logger.warn({ err: (err as Error).message, events: events.length }, 'events left in the outbox for the sweeper');
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  private async publishAndDelete(events: StagedEvent[]): Promise<void> {
    await Promise.all(events.map((e) => this.publisher!.publish(e.routingKey, e.envelope)));
    await this.db.query('DELETE FROM outbox WHERE event_id = ANY($1::uuid[])', [events.map((e) => e.envelope.id)]);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweeping = this.sweep().then(() => undefined).finally(() => {
        this.sweeping = undefined;
        this.schedule(this.options.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** Publishes every event older than the sweep age; returns how many went out. */
  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        if (!this.publisher?.isConnected()) break;
        const sent = await this.sweepBatch();
        total += sent;
        if (sent < (this.options.batchSize ?? 100) || this.stopped) break;
      }
      // Applied command ids are kept for a day: long enough for any redelivery.
      await this.db.query(`DELETE FROM applied_commands WHERE applied_at < now() - interval '1 day'`);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'outbox sweep could not publish; will retry');
    }
    if (total > 0) this.logger.info({ events: total }, 'outbox sweep published events left behind');
    return total;
  }

  private sweepBatch(): Promise<number> {
    return this.db.transaction(async (m) => {
      const rows: OutboxRow[] = await m.query(
        `SELECT id, routing_key, envelope::text AS envelope FROM outbox
          WHERE created_at < now() - $2 * interval '1 millisecond'
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize ?? 100, this.options.sweepAgeMs],
      );
      if (rows.length === 0) return 0;
      await Promise.all(rows.map((row) => this.publisher!.publish(row.routing_key, row.envelope)));
      await m.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [rows.map((r) => r.id)]);
      return rows.length;
    });
  }
}

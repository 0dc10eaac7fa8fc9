import { EventEnvelope } from '@app/contracts';
import type { AppLogger, EventPublisher } from '@app/common';
import { DataSource } from 'typeorm';

interface OutboxRow { id: string; routing_key: string; envelope: EventEnvelope }

/**
 * Moves committed events from the outbox table to the broker. Rows are claimed with
 * FOR UPDATE SKIP LOCKED (replicas never publish the same row at once) and deleted only
 * after the broker confirmed them, so a crash at any point loses nothing (an event may
 * be published twice; consumers de-duplicate on the envelope id).
 */
export class OutboxRelay {
  private running = false;
  private again = false;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly logger: AppLogger,
    private readonly pollMs: number,
    private readonly batchSize = 100,
  ) {}

  /** Starts polling (idempotent: a second call does not start a second poll loop). */
  start(): void {
    this.stopped = false;
    if (this.timer) clearTimeout(this.timer);
    this.schedule();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
  }

  /** Publish now (called right after a transaction that wrote events commits). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain().finally(() => {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.kick();
      this.schedule();
    }, this.pollMs);
    this.timer.unref();
  }

  /** Publishes until the outbox is empty; returns how many events went out. */
  async drain(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const sent = await this.publishBatch();
        total += sent;
        if (sent < this.batchSize || this.stopped) break;
      }
    } catch (err) {
      this.logger.warn({ err }, 'outbox relay could not publish; will retry');
    }
    return total;
  }

  private publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        'SELECT id, routing_key, envelope FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
        [this.batchSize],
      );
      if (rows.length === 0) return 0;
      await Promise.all(rows.map((row) => this.publisher.publish(row.routing_key, row.envelope)));
      await manager.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [rows.map((r) => r.id)]);
      for (const row of rows) {
        this.logger.info({ eventId: row.envelope.id, routingKey: row.routing_key }, 'event published');
      }
      return rows.length;
    });
  }
}

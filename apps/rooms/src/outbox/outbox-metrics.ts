import { sampledOnScrape } from '@app/common';
import { Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

export interface OutboxBacklog {
  /** Rows not yet published. */
  events: number;
  /** Age of the oldest of them, in seconds (0 when there is none). */
  oldestSeconds: number;
}

/**
 * How far the relay is behind: one read of a table the relay keeps near empty
 * (a count and a min over the rows not yet published), made when Prometheus scrapes, not on
 * any request's path.
 */
export async function readOutboxBacklog(db: DataSource): Promise<OutboxBacklog> {
  const [row] = await db.query(
    `SELECT count(*)::int AS events, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest FROM outbox`,
  ) as Array<{ events: number; oldest: number }>;
  return { events: row.events, oldestSeconds: Math.max(0, row.oldest) };
}

/** `outbox_events` and `outbox_oldest_event_age_seconds`, read on scrape (1 s timeout, reused for 1 s). */
export function registerOutboxMetrics(registry: Registry, read: () => Promise<OutboxBacklog>): void {
  const sample = sampledOnScrape(read);
  new Gauge({
    name: 'outbox_events',
    help: 'Events committed and not yet published to the broker (the outbox relay\'s backlog).',
    registers: [registry],
    async collect() {
      const backlog = await sample();
      if (backlog) this.set(backlog.events);
    },
  });
  new Gauge({
    name: 'outbox_oldest_event_age_seconds',
    help: 'Age of the oldest event not yet published (0 when none waits).',
    registers: [registry],
    async collect() {
      const backlog = await sample();
      if (backlog) this.set(backlog.oldestSeconds);
    },
  });
}

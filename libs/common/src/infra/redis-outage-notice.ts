import type { AppLogger } from '../logging';

/** How often, at most, a Redis outage is logged again while it lasts. */
const WARN_EVERY_MS = 60_000;

/**
 * What a component that shares its counters through Redis says when Redis stops and starts
 * answering (the gateway's rate limits, the dispatchers' bridge posting budgets): one warning
 * when it goes, again at most once a minute while it is gone, and one line with how long it
 * was gone when it answers again. The component carries on alone meanwhile.
 */
export class RedisOutageNotice {
  private degradedSince: number | null = null;
  private lastWarning = 0;

  constructor(
    private readonly logger: AppLogger,
    private readonly words: { down: string; back: string },
    private readonly now: () => number = Date.now,
  ) {}

  /** A call to Redis failed. */
  degraded(err: unknown): void {
    const now = this.now();
    if (this.degradedSince === null) this.degradedSince = now;
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err: (err as Error)?.message ?? String(err) }, this.words.down);
  }

  /** A call to Redis answered. */
  recovered(): void {
    if (this.degradedSince === null) return;
    this.logger.warn({ afterMs: this.now() - this.degradedSince }, this.words.back);
    this.degradedSince = null;
    this.lastWarning = 0;
  }
}

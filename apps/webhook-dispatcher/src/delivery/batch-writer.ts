/**
 * Group commit: writes handed in while a write is running go together in the next one (at
 * most `maxBatch` at a time), so that under load one round trip and one commit serve many
 * records rather than one each. A lone record is written at once, or after `lingerMs` when
 * set: for records nobody waits for, a short wait gathers a steady trickle (one attempt per
 * millisecond) into one write instead of one every round trip. Each `add` resolves with the
 * result of the write that carried it (or rejects with its error). With `concurrency` above 1,
 * that many writes may run at once (each takes the next batch): for records whose write
 * time, not their count, is the wait (rows of different deliveries, no lock shared).
 *
 * `urgent` items do not wait out the linger, only the end of the event loop's turn (so that what
 * the same turn hands in, such as the answers read together from their sockets, still goes in
 * one write): one starts a write then when a writer is free, and otherwise ends the linger of
 * a writer that is waiting. For records whose absence costs more than a write (see ATTEMPT_RECORDER).
 */
export class BatchWriter<T, R = void> {
  private readonly waiting: Array<{ item: T; resolve: (result: R) => void; reject: (err: unknown) => void }> = [];
  /** Writers at work: counted down in the same turn as the writer sees nothing left to take. */
  private active = 0;
  private readonly runs = new Set<Promise<void>>();
  /** Ends the linger of each writer waiting it out. */
  private readonly lingering = new Set<() => void>();

  constructor(
    private readonly write: (items: T[]) => Promise<R>,
    private readonly maxBatch = 200,
    private readonly lingerMs = 0,
    private readonly concurrency = 1,
    private readonly urgent: (item: T) => boolean = () => false,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      const urgent = this.lingerMs > 0 && this.urgent(item);
      if (this.active < this.concurrency) {
        this.active++;
        const run = this.drain(urgent ? 'turn' : 'linger');
        this.runs.add(run);
        void run.then(() => this.runs.delete(run));
      } else if (urgent && this.lingering.size > 0) {
        setImmediate(() => {
          for (const wake of [...this.lingering]) wake();
        });
      }
    });
  }

  /** Resolves once everything handed in so far is written (or failed). */
  async flushed(): Promise<void> {
    while (this.runs.size) await Promise.all([...this.runs]);
  }

  private async drain(wait: 'linger' | 'turn'): Promise<void> {
    if (wait === 'turn') {
      await new Promise((r) => setImmediate(r));
    } else if (this.lingerMs > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.lingering.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, this.lingerMs);
        this.lingering.add(wake);
      });
    }
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const result = await this.write(batch.map((b) => b.item));
        for (const b of batch) b.resolve(result);
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.active--;
  }
}

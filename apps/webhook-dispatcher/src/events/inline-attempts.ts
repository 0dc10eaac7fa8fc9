import type { DeliveryJob } from '../delivery/delivery-job';
import type { JobHandler } from '../delivery/delivery-queues';

/**
 * First attempts made by the replica that took the event, straight away: no trip through the
 * deliveries queue (a persistent publish, its confirm, a consume and an ack per delivery)
 * between an event and its webhooks. The event stays unacknowledged until each attempt has
 * given its slot back (DeliveryWorker's lease: the attempt ended and any retry is parked in
 * the broker, or it was detached with a guard copy), so a replica that dies meanwhile leaves
 * the event to be delivered again, as a queued job would be.
 *
 * At most `slots` attempts at once, shared by all events; jobs beyond that go through the
 * deliveries queue, as do jobs whose attempt could not be settled here.
 */
export class InlineAttempts {
  private free: number;
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly attempt: JobHandler, slots: number) {
    this.free = slots;
  }

  /** Reserves a slot for as many of the jobs as it can, in order; answers those it took. */
  take(jobs: readonly DeliveryJob[]): DeliveryJob[] {
    const n = Math.min(this.free, jobs.length);
    this.free -= n;
    return jobs.slice(0, n);
  }

  /**
   * Makes the attempts of jobs `take` gave; resolves once every one has given its slot back,
   * with the jobs that still need the deliveries queue.
   */
  async run(jobs: readonly DeliveryJob[]): Promise<DeliveryJob[]> {
    const settled = await Promise.all(jobs.map((job) => this.one(job)));
    return jobs.filter((_, i) => settled[i] === 'queue');
  }

  /** Resolves once the attempts in hand have ended, or after `ms`. */
  async drain(ms: number): Promise<void> {
    if (this.running.size === 0) return;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, ms).unref())]);
  }

  private one(job: DeliveryJob): Promise<'done' | 'queue'> {
    return new Promise((resolve) => {
      let held = true;
      const giveBack = (how: 'done' | 'queue') => {
        if (held) {
          held = false;
          this.free++;
        }
        resolve(how);
      };
      // 'requeue' is the worker's "make this attempt again": the queue will.
      const handling = this.attempt(job, { release: () => giveBack('done') })
        .then((outcome) => giveBack(outcome === 'ack' ? 'done' : 'queue'), () => giveBack('queue'));
      this.running.add(handling);
      void handling.finally(() => this.running.delete(handling));
    });
  }
}

import type { DeliveryJob } from '../delivery/delivery-job';
import type { NextAttempt } from '../delivery/delivery-worker';

export type LaneStep = NextAttempt;

/** Makes one attempt of a delivery (sends, decides, records, posts the reply). */
export type LaneAttempt = (job: DeliveryJob) => Promise<LaneStep>;

interface Entry {
  job: DeliveryJob;
  /** Not attempted before this time (epoch ms): a retry recorded as due then. */
  notBefore: number;
}

/** Wait before trying again an attempt that threw (not an outcome: the database or the index failed). */
const FAULT_PAUSE_MS = 1_000;

/**
 * Ordered delivery (a webhook registered with `"delivery": "ordered"`): one lane per webhook
 * and room, each delivery of a lane made only once the one before it has ended, in the order
 * they were added. A delivery being retried holds back only its own lane: lanes run side by
 * side, and a retry waits on a timer of its lane, not on a slot. Once a delivery has ended
 * (failed for good included), the next of its lane goes on.
 *
 * Holds no state the database does not (every delivery in a lane has a pending or retrying
 * row): a replica that stops or dies loses only its timers, and the next replica to lead
 * the ordered deliveries rebuilds the lanes from the rows (OrderedDeliveries).
 */
export class OrderedLanes {
  private readonly lanes = new Map<string, Entry[]>();
  /** Deliveries in a lane (queued or being attempted): a delivery is added once. */
  private readonly present = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly waits = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private stopped = false;

  constructor(
    private readonly attempt: LaneAttempt,
    private readonly onFault: (err: unknown, job: DeliveryJob) => void = () => undefined,
  ) {}

  /** The lane of a delivery: its webhook and room (group-wide webhooks: the room the event was in). */
  static keyOf(job: Pick<DeliveryJob, 'webhookId' | 'roomId'>): string {
    return `${job.webhookId}:${job.roomId ?? '-'}`;
  }

  /** Deliveries waiting or in progress, in every lane. */
  get size(): number {
    return this.present.size;
  }

  has(deliveryId: string): boolean {
    return this.present.has(deliveryId);
  }

  /**
   * Appends the delivery to its lane (after every delivery added before to that lane); a
   * delivery already in a lane is ignored. `notBefore`: not attempted before (epoch ms).
   */
  add(job: DeliveryJob, notBefore = 0): boolean {
    if (this.stopped || this.present.has(job.deliveryId)) return false;
    this.present.add(job.deliveryId);
    const key = OrderedLanes.keyOf(job);
    const lane = this.lanes.get(key);
    if (lane) {
      lane.push({ job, notBefore });
      return true;
    }
    this.lanes.set(key, [{ job, notBefore }]);
    const run = this.run(key).finally(() => this.running.delete(run));
    this.running.add(run);
    return true;
  }

  /** Starts no attempt any more, drops what waits, and resolves once the attempts under way have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.waits) {
      clearTimeout(w.timer);
      w.wake();
    }
    this.waits.clear();
    await Promise.allSettled([...this.running]);
    this.lanes.clear();
    this.present.clear();
  }

  private async run(key: string): Promise<void> {
    const lane = this.lanes.get(key)!;
    while (!this.stopped && lane.length > 0) {
      const entry = lane[0];
      await this.sleep(entry.notBefore - Date.now());
      let job: DeliveryJob | null = entry.job;
      while (job && !this.stopped) {
        let step: LaneStep;
        try {
          step = await this.attempt(job);
          // Recorded before the lane goes on: a replica killed after sending the next delivery
          // would otherwise leave this one unrecorded, for the next leader to send again after it.
          await step.recorded;
        } catch (err) {
          this.onFault(err, job);
          await this.sleep(FAULT_PAUSE_MS);
          continue;
        }
        job = step.next;
        if (job) await this.sleep(step.retryInMs);
      }
      if (this.stopped) break;
      lane.shift();
      this.present.delete(entry.job.deliveryId);
    }
    if (!this.stopped) this.lanes.delete(key);
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wait = {
        timer: setTimeout(() => {
          this.waits.delete(wait);
          resolve();
        }, ms),
        wake: resolve,
      };
      this.waits.add(wait);
    });
  }
}

import type { DeliveryJob } from '../delivery/delivery-job';
import type { NextAttempt } from '../delivery/delivery-worker';

export type LaneStep = NextAttempt;

/**
 * Makes one attempt of a delivery (sends, decides, records, posts the reply), with the
 * deliveries after it coalesced into its post (`companions`: a bridge's; the step's
 * `companions` says what became of each); `paced`: its first post's budget is taken.
 */
export type LaneAttempt = (job: DeliveryJob, companions: readonly DeliveryJob[], paced: boolean) => Promise<LaneStep>;

/**
 * Paces a lane's attempts to what its target allows (a bridge's platform; see BridgePacer):
 * the lane asks before each attempt and waits on a timer of its own, not a slot.
 */
export interface LanePacer {
  /** `waitMs` 0: attempt now (`paced`: a post of the budget was taken for it); else ask again after that long. */
  reserve(job: DeliveryJob): Promise<{ waitMs: number; paced: boolean }>;
  /** How many of `waiting` (the head first, then the deliveries after it, in order) go into the head's one post: at least 1. */
  coalesce(waiting: readonly DeliveryJob[]): number;
}

interface Entry {
  /** Replaced by its next attempt when it was retried with the head it was coalesced into. */
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
 * A bridge's lane keeps its platform's posting limit (LanePacer): before each attempt it
 * asks for a post of the budget and, told to wait, waits on its own timer; the deliveries
 * that piled up meanwhile go with the head into one post (as many as one post holds), so a
 * burst arrives as few posts, in order, nothing dropped.
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
    private readonly pacer: LanePacer | null = null,
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
      let waited = await this.sleep(entry.notBefore - Date.now());
      let job: DeliveryJob | null = entry.job;
      while (job && !this.stopped) {
        let step: LaneStep;
        let companions: Entry[] = [];
        try {
          const pace = await this.pace(job);
          if (!pace) break;
          waited ||= pace.waited;
          // Only what a wait made pile up is coalesced: a lane that keeps up posts each delivery alone.
          companions = waited ? this.companionsOf(lane, job) : [];
          step = await this.attempt(job, companions.map((c) => c.job), pace.paced);
          // Recorded before the lane goes on: a replica killed after sending the next delivery
          // would otherwise leave this one unrecorded, for the next leader to send again after it.
          await step.recorded;
        } catch (err) {
          this.onFault(err, job);
          waited = await this.sleep(FAULT_PAUSE_MS);
          continue;
        }
        this.settle(lane, companions, step);
        job = step.next;
        waited = job ? await this.sleep(step.retryInMs) : false;
      }
      if (this.stopped) break;
      lane.shift();
      this.present.delete(entry.job.deliveryId);
    }
    if (!this.stopped) this.lanes.delete(key);
  }

  /** Waits until the pacer lets the job go (null: the lanes stopped meanwhile); whether it had to wait. */
  private async pace(job: DeliveryJob): Promise<{ paced: boolean; waited: boolean } | null> {
    if (!this.pacer) return { paced: false, waited: false };
    let waited = false;
    for (;;) {
      const { waitMs, paced } = await this.pacer.reserve(job);
      if (this.stopped) return null;
      if (waitMs <= 0) return { paced, waited };
      waited = await this.sleep(waitMs);
    }
  }

  /** The deliveries after the head that go into its post: due ones, in order, as many as the pacer says fit. */
  private companionsOf(lane: Entry[], head: DeliveryJob): Entry[] {
    if (!this.pacer) return [];
    const now = Date.now();
    const due: Entry[] = [];
    for (const e of lane.slice(1)) {
      if (e.notBefore > now) break;
      due.push(e);
    }
    if (due.length === 0) return [];
    return due.slice(0, this.pacer.coalesce([head, ...due.map((e) => e.job)]) - 1);
  }

  /** The coalesced deliveries after their shared attempt: an ended one leaves the lane, a retried one waits in its place. */
  private settle(lane: Entry[], companions: readonly Entry[], step: LaneStep): void {
    companions.forEach((entry, i) => {
      const next = step.companions?.[i] ?? null;
      if (next) {
        entry.job = next;
        return;
      }
      const at = lane.indexOf(entry);
      if (at > 0) lane.splice(at, 1);
      this.present.delete(entry.job.deliveryId);
    });
  }

  /** Waits `ms` on a timer of the lane's own; whether it waited at all. */
  private sleep(ms: number): Promise<boolean> {
    if (ms <= 0 || this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wait = {
        timer: setTimeout(() => {
          this.waits.delete(wait);
          resolve(true);
        }, ms),
        wake: () => resolve(true),
      };
      this.waits.add(wait);
    });
  }
}

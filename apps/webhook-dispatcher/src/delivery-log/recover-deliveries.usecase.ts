import type { AppLogger, CommandMeta } from '@app/common';
import { commandFailure, RecoverDeliveriesV1, ReplyOf, RequestOf } from '@app/contracts';
import { DeliveryQueues } from '../delivery/delivery-queues';
import { refuseIfLate } from './deadline';
import { DeliveryLogRepository } from './delivery-log.repository';
import { inBatches, oldestFirst, recoveryJob } from './resend-jobs';

/** Jobs published per round trip (each batch waits for the broker's confirms). */
export const RECOVER_BATCH = 500;

/**
 * Sends a webhook's failed deliveries again: takes them out of `failed` in one statement
 * (two recovers at once never take the same one), then queues their jobs oldest first, a
 * batch at a time with publisher confirms, so ten thousand cost twenty round trips and
 * little memory. What could not be queued goes back to `failed` (a later recover takes it);
 * the answer counts what was queued.
 */
export class RecoverDeliveries {
  constructor(
    private readonly log: DeliveryLogRepository,
    private readonly queues: DeliveryQueues,
    private readonly logger: AppLogger,
    private readonly batch = RECOVER_BATCH,
  ) {}

  async execute(c: RequestOf<typeof RecoverDeliveriesV1>, meta: CommandMeta): Promise<ReplyOf<typeof RecoverDeliveriesV1>> {
    refuseIfLate(meta);
    const batches = inBatches(oldestFirst(await this.log.claimFailed(c.webhookId, c.since)), this.batch);
    let queued = 0;
    for (let i = 0; i < batches.length; i++) {
      try {
        const rows = new Map((await this.log.jobRows(batches[i].map((d) => d.id))).map((r) => [r.id, r]));
        const jobs = batches[i].flatMap((d) => {
          const row = rows.get(d.id);
          return row ? [{ ...recoveryJob(row), ...(meta.traceparent ? { traceparent: meta.traceparent } : {}) }] : [];
        });
        await this.queues.publishJobs(jobs);
        queued += jobs.length;
      } catch (err) {
        const rest = batches.slice(i).flat();
        this.logger.warn({ err: (err as Error).message, webhookId: c.webhookId, queued, notQueued: rest.length }, 'recover stopped: deliveries not queued');
        await this.log.unclaim(rest).catch((e: Error) =>
          this.logger.error({ err: e.message, webhookId: c.webhookId, deliveries: rest.length }, 'recovered deliveries left retrying without a job'));
        if (queued === 0) throw commandFailure('unavailable', 'dependency_failed');
        break;
      }
    }
    this.logger.info({ webhookId: c.webhookId, since: c.since, count: queued }, 'failed deliveries recovered');
    return { count: queued };
  }
}

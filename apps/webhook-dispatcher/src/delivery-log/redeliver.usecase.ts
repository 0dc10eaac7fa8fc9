import { traceFields } from '@app/common';
import type { AppLogger, CommandMeta } from '@app/common';
import { commandFailure, RedeliverV1, ReplyOf, RequestOf } from '@app/contracts';
import { DeliveryQueues } from '../delivery/delivery-queues';
import { refuseIfLate } from './deadline';
import { DeliveryLogRepository } from './delivery-log.repository';
import { ofWebhook } from './not-found';
import { redeliverJobFor, redeliverRefusal } from './resend-jobs';

/**
 * One more attempt of a delivery, whatever its status, through the deliveries queue: the
 * DeliveryWorker sends it (outbound guard, signing, recording) like any other attempt. Of a
 * delivery still in its retries, the next one, now (see redeliverJobFor); of an ordered one
 * still in its lane, none (redeliverRefusal).
 */
export class Redeliver {
  constructor(private readonly log: DeliveryLogRepository, private readonly queues: DeliveryQueues, private readonly logger: AppLogger) {}

  async execute(c: RequestOf<typeof RedeliverV1>, meta: CommandMeta): Promise<ReplyOf<typeof RedeliverV1>> {
    refuseIfLate(meta);
    const row = ofWebhook(await this.log.find(c.delivery), c.delivery, c.webhookId);
    const refusal = redeliverRefusal(row);
    if (refusal) throw commandFailure('conflict', 'rule', 'delivery', { problem: refusal });
    // Its attempt belongs to the operator's request (the command's trace).
    const job = { ...redeliverJobFor(row), ...(meta.traceparent ? { traceparent: meta.traceparent } : {}) };
    try {
      await this.queues.publishJobs([job]);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, deliveryId: row.id, ...traceFields(meta.traceparent) }, 'redelivery not queued');
      throw commandFailure('unavailable', 'dependency_failed');
    }
    this.logger.info({ deliveryId: row.id, webhookId: row.webhook_id, attempt: job.attempt, ...traceFields(meta.traceparent) }, 'redelivery queued');
    return { deliveryId: row.id, attempt: job.attempt };
  }
}

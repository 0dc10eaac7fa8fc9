import { AttemptToRecord } from './delivery.repository';
import { DeliveryJob } from './delivery-job';

/** The error of a delivery that was not sent because its webhook is disabled. */
export const WEBHOOK_DISABLED = 'webhook disabled';

/**
 * A retry (or a late first attempt) whose webhook was disabled since it was scheduled: not
 * sent, and recorded as a failed attempt of a failed delivery, never `cancelled`, so that a
 * recovery once it is enabled again finds it among the failed ones.
 */
export function disabledAttempt(job: DeliveryJob, now: Date): AttemptToRecord {
  return {
    job,
    record: { deliveryId: job.deliveryId, attempt: job.attempt, startedAt: now, durationMs: 0, status: null, error: WEBHOOK_DISABLED, responseExcerpt: null, responseHeaders: null },
    state: { status: 'failed', attempts: job.attempt, lastStatus: null, lastError: WEBHOOK_DISABLED, nextAttemptAt: null, parkedUntil: null },
  };
}

import { DeliveryJob } from '../delivery/delivery-job';
import type { ClaimedDelivery, JobRow } from './delivery-log.repository';

/**
 * The job that sends a recorded delivery again, built from its record alone: the envelope
 * as first built (the same body and `webhook-id`), numbered after the attempts it had.
 * Signed afresh when it is sent (a new timestamp and JWT). Its first attempt goes to the
 * webhook as it was at its event, as the job first built would have; any later one, to the
 * webhook as it is now.
 */
export function jobOf(row: JobRow): DeliveryJob {
  return {
    deliveryId: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    eventId: row.event_id,
    roomId: row.room_id,
    attempt: row.attempts + 1,
    envelopeBody: row.envelope,
    createdAt: row.created_at.toISOString(),
    actorUserId: row.actor_user_id,
    // A delivery not attempted yet (written pending, then its lane rebuilt by the replica that
    // took the lead) keeps its event's stamp: its first attempt goes to the webhook as it was
    // then, so a room's room_deleted still reaches the webhooks the deletion removed. A later
    // attempt is a retry, which goes to the webhook as it is now (deleting it cancels them).
    registrationsVersion: row.attempts === 0 && row.registrations_version !== null && row.registrations_version !== undefined
      ? Number(row.registrations_version) : null,
    replyDepth: row.reply_depth,
    // The trace of the event that caused it (a redeliver or recover puts its own request's instead).
    ...(row.traceparent ? { traceparent: row.traceparent } : {}),
    // Where its retry schedule started again, if a recover restarted it: a redelivered attempt
    // still in its retries counts from there, not from the first schedule (past whose end it would be the last).
    ...(row.schedule_offset !== null && row.schedule_offset !== undefined ? { scheduleOffset: row.schedule_offset } : {}),
    // A bridge's split message goes on from the first post its platform has not accepted.
    ...(row.parts_done ? { partsDone: row.parts_done } : {}),
  };
}

/**
 * An operator's attempt (a redeliver, a recover) is asked for now, not by the event: to the
 * webhook as it is now, even a delivery's first (one never attempted, or a redeliver's copy).
 */
const asItIsNow = (row: JobRow): DeliveryJob => ({ ...jobOf(row), registrationsVersion: null });

/**
 * Redeliver: one attempt, not retried (see DeliveryDecisions), to the webhook as it is now;
 * a bridge's message whole again (every post: the operator asked to send it again).
 */
export function redeliveryJob(row: JobRow): DeliveryJob {
  const { partsDone: _sentBefore, ...job } = asItIsNow(row);
  return { ...job, redelivery: true };
}

/**
 * Why a redeliver of this delivery is refused, or null. An ordered delivery not yet ended is
 * its lane's to send: one at a time, in the order of its room's events, and the lane makes
 * its next attempt when its turn or its retry comes. An attempt made now, beside the lane,
 * would overtake the deliveries before it (the one the lane is retrying) and share its
 * number with the lane's own attempt. Once it has ended, a redeliver is one attempt as for
 * any other.
 */
export function redeliverRefusal(row: { status: string; ordered?: boolean; next_attempt_at?: Date | null }): string | null {
  if (!row.ordered || (row.status !== 'pending' && row.status !== 'retrying')) return null;
  const when = row.status === 'retrying' && row.next_attempt_at ? `its next attempt is due at ${row.next_attempt_at.toISOString()}`
    : 'it is attempted once the deliveries before it in its lane have ended';
  return `is ${row.status} in the lane of an ordered webhook, which sends a room's deliveries one at a time in order: ${when}. `
    + 'It can be redelivered once it has ended.';
}

/**
 * The job a redeliver queues, by where the delivery stands. One that has ended (delivered,
 * failed, cancelled) gets one more attempt, not retried (redeliveryJob). One still in its
 * retries (`pending` or `retrying`; not ordered: see redeliverRefusal) has its next attempt
 * made now, as part of them: a failure is retried on the schedule, and whichever of this copy
 * and the retry that was waiting comes second finds the attempt made and is dropped (a guard
 * copy: the worker looks the attempt up first, even a first one). A one-off attempt there
 * would share its number with the waiting retry, so one of the two was silently dropped: a
 * redeliver that did nothing, or retries cut short by a one-off failure.
 */
export function redeliverJobFor(row: JobRow & { status: string }): DeliveryJob {
  const inRetries = row.status === 'pending' || row.status === 'retrying';
  return inRetries ? { ...asItIsNow(row), guard: true } : redeliveryJob(row);
}

/**
 * Recover: attempts go on from what the delivery had, on a retry schedule started afresh
 * (the claim stores the same offset in the row, for a redeliver's job: see jobOf), to the
 * webhook as it is now.
 */
export const recoveryJob = (row: JobRow): DeliveryJob => ({ ...asItIsNow(row), scheduleOffset: row.attempts });

/** Oldest first (as they were created), then by id: the order a recover queues them in. */
export const oldestFirst = (claimed: readonly ClaimedDelivery[]): ClaimedDelivery[] =>
  [...claimed].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Consecutive slices of at most `size`. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

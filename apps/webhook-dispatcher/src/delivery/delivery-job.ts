import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The namespace of delivery ids (UUID v5): fixed, so every replica derives the same id. */
const DELIVERY_ID_NAMESPACE = '3f06852d-0bb9-4aa9-a398-3cc4681f989c';

/**
 * RFC 9562 UUID version 5 (SHA-1 of namespace and name). Written out here rather than taken
 * from the `uuid` package, which is not one of our dependencies: a dozen lines of a fixed
 * algorithm, checked against the RFC's test vector in the spec.
 */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error(`not a UUID: ${namespace}`);
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One event's delivery to one registration: derived from both, so a redelivered event
 * yields the same id (Standard Webhooks' `webhook-id`, which receivers de-duplicate on).
 */
export const deliveryIdOf = (eventId: string, webhookId: number): string =>
  uuidV5(`${eventId}:${webhookId}`, DELIVERY_ID_NAMESPACE);

/** A message of the deliveries queue (and, waiting for a retry, of a delay queue). */
export const deliveryJobSchema = z.object({
  deliveryId: z.string().uuid(),
  webhookId: z.number().int().positive(),
  event: z.string().min(1).max(32),
  eventId: z.string().min(1).max(100),
  roomId: z.number().int().positive().nullable(),
  /** This attempt's number, from 1. */
  attempt: z.number().int().min(1),
  /** The exact JSON POSTed: built once, when the event was matched. */
  envelopeBody: z.string(),
  /** ISO-8601: when the event was matched (a replica whose index is older reloads it first). */
  createdAt: z.string(),
  /** The user who caused the event (the JWT's `sub`), when the event names one. */
  actorUserId: z.number().int().positive().nullable().default(null),
  /**
   * The event's registrations version (its stamp): the first attempt goes to the webhook as
   * it was in force then, even if it was removed or changed since. Null: an unstamped event.
   */
  registrationsVersion: z.number().int().nonnegative().nullable().default(null),
  /** The `causedBy.depth` of the notification a reply to this delivery becomes (see replyCausedBy). */
  replyDepth: z.number().int().min(1).default(1),
  /**
   * A guard copy, parked while its attempt was in flight: it comes back after that attempt's
   * deadline, and is dropped if the attempt was recorded (the process making it did not die).
   * Also the job of an event seen before, whose first job may still be queued (unsentJobs).
   */
  guard: z.boolean().optional(),
  /**
   * One attempt asked for by an operator (the delivery log's redeliver): not retried when it
   * fails, and its outcome is the delivery's status, even over `delivered`.
   */
  redelivery: z.boolean().optional(),
  /**
   * Attempts made before the retry schedule began again (the delivery log's recover): the
   * schedule's waits are counted from the attempt after them. Absent: 0.
   */
  scheduleOffset: z.number().int().min(0).optional(),
  /**
   * An ordered delivery's place in its lane (see OrderedLanes): increasing in the order its
   * event reached the dispatcher. Absent: a concurrent delivery.
   */
  lanePosition: z.number().int().nonnegative().optional(),
  /**
   * The W3C trace context its attempts belong to (the span that matched the event, or the
   * operator's redeliver): each attempt's span is its child, whichever replica makes it and
   * however late. Unreadable: the attempt starts a trace of its own.
   */
  traceparent: z.string().max(256).optional(),
  /**
   * A bridge's delivery that renders to several posts (a long message split for its platform):
   * how many of them the platform has accepted, so that a retry resumes at the first one not
   * yet accepted (people must not read a part twice). Absent: 0.
   */
  partsDone: z.number().int().min(0).optional(),
});
export type DeliveryJob = z.output<typeof deliveryJobSchema>;

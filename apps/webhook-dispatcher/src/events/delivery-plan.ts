import { EventEnvelope, isBridge, WebhookEventName, WebhookRegistration } from '@app/contracts';
import { bridgeMessageBody } from '../bridges/bridge-delivery';
import { DeliveryJob, deliveryIdOf } from '../delivery/delivery-job';
import { matchingRegistrations, roomIdOf } from '../registrations/matching';
import { buildEnvelope } from './envelope';
import { replyCausedBy } from '../replies/reply';

/**
 * The delivery jobs of one room event: one per matching registration, each with its
 * envelope (a bridge's: its BridgeMessage, see bridgeMessageBody) serialized once (every attempt POSTs these exact bytes) and an id derived from
 * the event and the webhook (a redelivered event makes the same jobs). Throws when the event
 * is malformed (its item is not an object).
 */
export function planDeliveries(o: {
  envelope: EventEnvelope;
  event: WebhookEventName;
  candidates: (roomId: number | null, event: WebhookEventName) => readonly WebhookRegistration[];
  patterns: (source: string) => { test(text: string): boolean };
  now: Date;
  /** The span that matched the event: its deliveries' attempts belong to its trace. */
  traceparent?: string;
}): DeliveryJob[] {
  const { envelope, event } = o;
  const payload = envelope.payload;
  const roomId = roomIdOf(payload);
  const registrations = matchingRegistrations({ event, payload, registrations: o.candidates(roomId, event), patterns: o.patterns });
  const createdAt = o.now.toISOString();
  const actorUserId = actingUserIdOf(payload);
  return registrations.map((registration) => {
    const deliveryId = deliveryIdOf(envelope.id, registration.id);
    return {
      deliveryId,
      webhookId: registration.id,
      event,
      eventId: envelope.id,
      roomId,
      attempt: 1,
      envelopeBody: isBridge(registration)
        ? bridgeMessageBody({ event, payload, deliveryId })
        : JSON.stringify(buildEnvelope({ event, payload, registration })),
      createdAt,
      replyDepth: replyCausedBy({ webhookId: registration.id, deliveryId, event, payload }).depth,
      actorUserId,
      registrationsVersion: envelope.registrationsVersion ?? null,
      ...(o.traceparent ? { traceparent: o.traceparent } : {}),
    };
  });
}

/**
 * The user who caused an event: the user whose personal token sent a notification, the author
 * of a message, else the event's `sender` when it is a user (an OAuth client's id is text, a
 * label is a string). Null for an integration's notification, whose `from` is a label.
 */
export function actingUserIdOf(payload: unknown): number | null {
  const p = payload as { message?: { from?: unknown }; sender?: unknown; actorUserId?: unknown } | null;
  if (typeof p?.actorUserId === 'number' && Number.isSafeInteger(p.actorUserId) && p.actorUserId > 0) return p.actorUserId;
  for (const who of [p?.message?.from, p?.sender]) {
    const id = (who as { id?: unknown } | null | undefined)?.id;
    if (typeof who === 'object' && typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  }
  return null;
}

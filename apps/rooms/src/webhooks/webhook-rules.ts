import { randomBytes } from 'node:crypto';
import { urlAddressRefusal } from '@app/common';
import { Actor, commandFailure, WebhookAuthentication, WebhookDeliveryMode, WebhookEventName, WebhookRef, WebhookSpec } from '@app/contracts';

/**
 * Who a webhook registered through the REST API belongs to: the room and the user whose
 * token registered it, or the add-on whose token did (its OAuth client id: a token of the
 * installation, whichever, is the same registrant). Its key is unique, and its count
 * limited, within this integration: a second add-on neither sees nor re-points the first
 * one's keyed webhook.
 */
export interface Registrant {
  roomId: number;
  userId: number | null;
  addOn: string | null;
}

/** The registrant an actor is in a room, given the add-on its token belongs to (RoomRepository.openForActor reads it). */
export const registrantOf = (roomId: number, actor: Pick<Actor, 'userId'>, addOn: string | null): Registrant =>
  ({ roomId, userId: actor.userId ?? null, addOn });

/** What a registration describes. */
export interface WebhookFields {
  event: WebhookEventName;
  url: string;
  pattern: string | null;
  name: string;
  authentication: WebhookAuthentication;
  delivery: WebhookDeliveryMode;
}

/** A request's fields, absent optional ones at their defaults (a PUT replaces them all). */
export const fieldsOf = (spec: WebhookSpec): WebhookFields => ({
  event: spec.event as WebhookEventName,
  url: spec.url,
  pattern: spec.pattern ?? null,
  name: spec.name ?? '',
  authentication: spec.authentication ?? 'none',
  delivery: spec.delivery ?? 'concurrent',
});

/** A REST registration's signing secret: 32 random bytes, base64url (shown once, at creation). */
export const newWebhookSecret = (): string => randomBytes(32).toString('base64url');

/** `pattern` filters message text: any other event has no text to match. */
export function assertPatternApplies(spec: Pick<WebhookSpec, 'event' | 'pattern'>): void {
  if (spec.pattern !== undefined && spec.event !== 'room_message') {
    throw commandFailure('invalid', 'rule', 'pattern', { problem: `applies to room_message only (event is ${spec.event})` });
  }
}

/**
 * A URL whose host is an address deliveries may never reach (loopback, private, metadata...,
 * unless WEBHOOK_ALLOWED_NETWORKS opens it) is refused now rather than failing at every
 * delivery. A host name is judged at each delivery, on the address it resolves to then.
 */
export function assertUrlReachable(url: string, allowedNetworks: readonly string[]): void {
  const refusal = urlAddressRefusal(url, allowedNetworks);
  if (refusal) throw commandFailure('invalid', 'rule', 'url', { problem: `cannot be delivered to: ${refusal}` });
}

export function assertUnderLimit(count: number, max: number): void {
  if (count >= max) {
    throw commandFailure('invalid', 'rule', undefined, {
      problem: `at most ${max} webhooks per room and integration, and this room has ${count} of yours: delete one first`,
    });
  }
}

export const describeWebhookRef = (ref: WebhookRef): string => ('id' in ref ? String(ref.id) : ref.key);

export const webhookNotFound = (ref: WebhookRef) =>
  commandFailure('not_found', 'webhook_not_found', 'webhook', { ref: describeWebhookRef(ref) });

/** A key a reference in this room would already resolve to (the caller's own webhook, or an add-on's). */
export const webhookKeyTaken = (key: string, roomId: number, byAddOn = false) =>
  commandFailure('conflict', 'rule', 'key', {
    problem: `"${key}" is already the key of ${byAddOn ? 'a webhook an installed add-on declared' : 'another of your webhooks'} in room ${roomId}`,
  });

/**
 * An add-on's webhooks change only with the add-on (installed, uninstalled). The refusal names
 * the webhook as the client referred to it (`ref`), never by an id it did not send: a key
 * that names an add-on's webhook must not tell its id to whoever may not see that webhook.
 */
export function assertNotAddOns(webhook: { installationId: number | null }, ref: WebhookRef): void {
  if (webhook.installationId !== null) {
    throw commandFailure('forbidden', 'not_allowed', 'webhook', {
      message: `Webhook ${describeWebhookRef(ref)} was declared by an installed add-on: it cannot be changed or deleted through the API (uninstall the add-on instead).`,
    });
  }
}

import { defineEvent } from '../envelope';

/**
 * Webhook registrations changed (created, replaced, deleted; an add-on installed or
 * removed; a room with webhooks deleted). Every dispatcher replica reloads its index on it,
 * so idle replicas catch up. The guarantee does not rest on it: events carry the
 * registrations' version they were caused at (EventEnvelope.registrationsVersion), and a
 * replica brings its index up to that version before matching. Not a webhook event.
 */
export interface WebhookRegistrationsChangedV1Payload {
  /** The room whose webhooks changed; null for group-wide ones. */
  roomId: number | null;
  webhookIds: number[];
}
export const WebhookRegistrationsChangedV1 = defineEvent<WebhookRegistrationsChangedV1Payload>('webhook.registrations-changed', 1);

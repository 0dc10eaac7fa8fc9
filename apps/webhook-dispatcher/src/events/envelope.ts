import { WEBHOOK_EVENT_SOURCES, WebhookEventName, WebhookRegistration } from '@app/contracts';

/** The body POSTed to a receiver (the specification's envelope). */
export interface WebhookEnvelope {
  event: string;
  item: Record<string, unknown>;
  /** A number: receivers reject any other type. */
  webhook_id: number;
  /** Text, for webhooks an add-on registered: a framework that finds no JWT may trust it. */
  oauth_client_id?: string;
}

/**
 * The envelope of one event for one registration. Throws when the event's item is not an
 * object (receivers reject it): such an event is malformed and should be dead-lettered.
 */
export function buildEnvelope(o: { event: WebhookEventName; payload: unknown; registration: WebhookRegistration }): WebhookEnvelope {
  const source = WEBHOOK_EVENT_SOURCES[o.event];
  if (!source) throw new TypeError(`no webhook event named ${String(o.event)}`);
  const item = source.item(o.payload);
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new TypeError(`the ${o.event} event's item is not an object`);
  }
  const { id, oauthClientId } = o.registration;
  return {
    event: o.event,
    item,
    webhook_id: Number(id),
    ...(oauthClientId !== null && oauthClientId !== undefined && oauthClientId !== '' ? { oauth_client_id: String(oauthClientId) } : {}),
  };
}

import { v2Links, type WebhookView } from '@app/contracts';

/** v2 shapes of the rooms service's webhook views; `base` is the public base URL without a trailing slash. */

/** Room routes show only the room's own webhooks, so `roomId` is set. */
export const webhookUrl = (w: WebhookView, base: string) => v2Links(base).webhook(w.roomId as number, w.id);

/**
 * 201 of POST .../webhook and of a PUT that created: the secret, shown this once; none for
 * an add-on's registration (it signs with the add-on's oauthSecret, which the add-on holds).
 */
export function toV2CreatedWebhook(w: WebhookView, secret: string | undefined, base: string) {
  return { id: w.id, links: { self: webhookUrl(w, base) }, ...(secret !== undefined ? { secret } : {}) };
}

/** An item of GET .../webhook: the registration and its health (see webhookItemSchema). */
export function toV2WebhookItem(w: WebhookView, base: string) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    event: w.event,
    pattern: w.pattern,
    authentication: w.authentication,
    delivery: w.delivery,
    ...(w.key !== null ? { key: w.key } : {}),
    enabled: w.enabled,
    last_success_at: w.health.lastSuccessAt,
    failing_since: w.health.failingSince,
    consecutive_failures: w.health.consecutiveFailures,
    disabled_reason: w.disabledReason,
    links: { self: webhookUrl(w, base) },
  };
}

/** GET .../webhook/{id} and .../extension/webhook/{key}. */
export function toV2Webhook(w: WebhookView, base: string) {
  const item = toV2WebhookItem(w, base);
  return { ...item, links: { ...item.links, room: v2Links(base).room(w.roomId as number) } };
}

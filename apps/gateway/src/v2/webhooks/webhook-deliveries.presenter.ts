import { maskedUrl } from '@app/common';
import { type DeliveryAttemptView, type DeliveryDetailView, deliveryLink, type DeliveryView, v2Links } from '@app/contracts';

/**
 * v2 shapes of the dispatcher's delivery views. `webhookSelf` is the webhook's own URL (its
 * `links.self`); a delivery's URL is under it.
 */

/** `last_attempt`: no status without an answer, no error with one. */
function lastAttemptOf(a: DeliveryAttemptView) {
  return {
    at: a.at,
    ...(a.statusCode !== null ? { status_code: a.statusCode } : {}),
    duration_ms: a.durationMs,
    ...(a.error !== null ? { error: a.error } : {}),
  };
}

/** An item of GET .../delivery; `id` is the `webhook-id` header the receiver saw. */
export function toV2DeliveryItem(d: DeliveryView, webhookSelf: string) {
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    created: d.created,
    attempts: d.attempts,
    ...(d.nextAttemptAt !== null ? { next_attempt_at: d.nextAttemptAt } : {}),
    ...(d.lastAttempt !== null ? { last_attempt: lastAttemptOf(d.lastAttempt) } : {}),
    links: { self: deliveryLink(webhookSelf, d.id) },
  };
}

/**
 * GET .../delivery/{id}: the item, the request as sent, every attempt (replacing the count),
 * the reply. `urlMasked`: the viewer is not the webhook's creator (WebhookView.urlMasked), and
 * sees the request's URL masked as the webhook's own.
 */
export function toV2Delivery(d: DeliveryDetailView, webhookSelf: string, urlMasked = false) {
  return {
    ...toV2DeliveryItem(d, webhookSelf),
    request: urlMasked && d.request.url ? { ...d.request, url: maskedUrl(d.request.url) } : d.request,
    attempts: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_headers: a.responseHeaders,
      response_body: a.responseBody,
    })),
    reply: d.reply.messageId !== null || d.reply.error !== null
      ? { message_id: d.reply.messageId, error: d.reply.error }
      : null,
  };
}

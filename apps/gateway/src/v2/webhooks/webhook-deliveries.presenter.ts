import { maskedUrl } from '@app/common';
import { type DeliveryAttemptView, type DeliveryDetailView, deliveryLink, type DeliveryStatsView, type DeliveryView } from '@app/contracts';

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
 * the reply. The request's URL is shown with its query masked to everyone, the webhook's
 * creator included (`maskUrl`: a bridge masks its path too): the query carries the
 * attempt's JWT (`signed_request`) and whatever token an add-on framework put there, and a
 * delivery's page is for reading what was sent, not for copying credentials from. Its
 * headers come with the JWT and the signature already cut short by the dispatcher.
 */
export function toV2Delivery(d: DeliveryDetailView, webhookSelf: string, maskUrl: (url: string) => string = maskedUrl) {
  return {
    ...toV2DeliveryItem(d, webhookSelf),
    request: { ...d.request, url: d.request.url === null ? null : maskUrl(d.request.url) },
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

/** GET .../delivery-stats (a webhook's or a bridge's): `self` is the statistics' own URL, with the query as asked. */
export function toV2DeliveryStats(s: DeliveryStatsView, self: string) {
  return {
    since: s.since,
    until: s.until,
    bucket: s.bucket,
    totals: s.totals,
    latency_ms: { p50: s.latency.p50Ms, p99: s.latency.p99Ms },
    buckets: s.buckets.map((b) => ({
      start: b.start, delivered: b.delivered, retried: b.retried, failed: b.failed, pending: b.pending, p50_ms: b.p50Ms, p99_ms: b.p99Ms,
    })),
    links: { self },
  };
}

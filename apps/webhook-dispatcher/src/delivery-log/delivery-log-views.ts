import { maskedBridgeUrl, type SecretBox } from '@app/common';
import type { DeliveryAttemptDetail, DeliveryAttemptView, DeliveryDetailView, DeliveryView, WebhookRegistration } from '@app/contracts';
import { BridgeRegistration, bridgePosts, bridgeRequest, shownBridgeRequest } from '../bridges/bridge-delivery';
import type { RepeatedRequest } from '../delivery/attempt-rows';
import { DeliveryJob } from '../delivery/delivery-job';
import { deliveryRequest, signingSecretOf } from '../delivery/delivery-request';
import type { AttemptRow, DeliveryRow, DetailRow } from './delivery-log.repository';

/** How much of a credential the log shows. */
export const SHOWN_PREFIX = 8;

/** A credential cut to its first characters: enough to tell two apart, not to use one. */
export const shortened = (value: string): string => (value.length <= SHOWN_PREFIX ? '…' : `${value.slice(0, SHOWN_PREFIX)}…`);

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A request of a delivery's latest attempt. */
interface LastRequest {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const answered2xx = (r: LastRequest): boolean => r.statusCode !== null && r.statusCode >= 200 && r.statusCode <= 299;

/** A further request as `repeats` holds it; null when it cannot be read (the row's own request is shown instead). */
function fromRepeat(r: RepeatedRequest): LastRequest | null {
  const at = new Date(r?.started_at);
  if (Number.isNaN(at.getTime())) return null;
  return {
    at,
    statusCode: typeof r.status === 'number' ? r.status : null,
    durationMs: typeof r.duration_ms === 'number' ? r.duration_ms : 0,
    error: typeof r.error === 'string' ? r.error : null,
  };
}

/**
 * The request the log shows as a delivery's last attempt; null before the first. An attempt
 * is made twice only around a crash (its further requests are the row's `repeats`): of its
 * requests, the one that delivered it when the delivery is delivered, so that the status and
 * the last attempt agree, else the one that started last.
 */
export function lastRequestOf(row: DeliveryRow): LastRequest | null {
  if (row.last_attempt === null || row.last_at === null) return null;
  const own: LastRequest = { at: row.last_at, statusCode: row.last_status, durationMs: row.last_duration_ms ?? 0, error: row.last_error };
  if (!Array.isArray(row.last_repeats) || row.last_repeats.length === 0) return own;
  const all = [own, ...row.last_repeats.map(fromRepeat).filter((r): r is LastRequest => r !== null)];
  const shown = row.status === 'delivered' && all.some(answered2xx) ? all.filter(answered2xx) : all;
  return shown.reduce((latest, r) => (r.at.getTime() > latest.at.getTime() ? r : latest));
}

/** An item of the log. */
export function toDeliveryView(row: DeliveryRow): DeliveryView {
  const last = lastRequestOf(row);
  const lastAttempt: DeliveryAttemptView | null = last && row.last_attempt !== null
    ? { attempt: row.last_attempt, at: last.at.toISOString(), statusCode: last.statusCode, durationMs: last.durationMs, error: last.error }
    : null;
  return {
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    status: row.status,
    created: row.created_at.toISOString(),
    attempts: row.attempts,
    nextAttemptAt: row.status === 'retrying' || row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastAttempt,
  };
}

export function toAttemptDetail(a: AttemptRow): DeliveryAttemptDetail {
  return {
    attempt: a.attempt,
    at: a.started_at.toISOString(),
    statusCode: a.status,
    durationMs: a.duration_ms,
    error: a.error,
    responseHeaders: a.response_headers,
    responseBody: a.response_excerpt,
  };
}

/**
 * The request as an attempt at `at` sent it, built by the code that sends it
 * (deliveryRequest), with the credentials it carries cut short: the JWT (header and
 * `signed_request` parameter) and the Standard Webhooks signature.
 */
export function shownRequest(job: DeliveryJob, registration: WebhookRegistration, secret: string, at: Date): { url: string; headers: Record<string, string>; body: string } {
  const request = deliveryRequest({ job, registration, secret, now: at });
  const jwt = request.headers.Authorization?.replace(/^JWT /, '');
  const hide = (text: string) => (jwt ? text.split(jwt).join(shortened(jwt)) : text);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = name === 'webhook-signature'
      ? value.split(' ').map((sig) => sig.replace(/^(v1,)(.*)$/, (_, v: string, mac: string) => `${v}${shortened(mac)}`)).join(' ')
      : hide(value);
  }
  // Nothing else of the request may carry the secret: it signs, it is never sent.
  return { url: hide(request.url), headers, body: request.body };
}

/**
 * A bridge's delivery as its platform was sent it: the posts its message renders to (a long
 * message is several: their bodies one per line, in order), to the bridge's URL masked past
 * its first path segment (the URL is the credential), without the Authorization header
 * (Matrix's access token). A delivery coalesced with others was sent in their post: its own
 * message is shown as it alone renders.
 */
export function shownBridgePosts(job: DeliveryJob, registration: BridgeRegistration): { url: string; headers: Record<string, string>; body: string } {
  const requests = bridgePosts(registration.bridge, [job.envelopeBody]).map((post) => bridgeRequest(registration.url, post, null));
  const shown = requests.map(shownBridgeRequest);
  return { url: maskedBridgeUrl(requests[0]?.url ?? registration.url), headers: shown[0]?.headers ?? {}, body: shown.map((r) => r.body).join('\n') };
}

/**
 * One delivery in full; `registration` is the webhook as it is now (undefined: gone), its
 * signing secret opened with `box` (a secret that cannot be opened shows no request, as a gone webhook).
 */
export function toDeliveryDetail(
  row: DetailRow, attempts: AttemptRow[], registration: WebhookRegistration | undefined, now: Date, box: SecretBox,
): DeliveryDetailView {
  const job: DeliveryJob = {
    deliveryId: row.id, webhookId: row.webhook_id, event: row.event, eventId: row.event_id, roomId: row.room_id,
    attempt: Math.max(1, row.attempts), envelopeBody: row.envelope, createdAt: row.created_at.toISOString(),
    actorUserId: row.actor_user_id, registrationsVersion: null, replyDepth: row.reply_depth,
  };
  const at = lastRequestOf(row)?.at ?? attempts[attempts.length - 1]?.started_at ?? now;
  const signing = registration && !registration.bridge ? signingSecretOf(registration, box) : null;
  const request = registration?.bridge
    ? shownBridgePosts(job, registration as BridgeRegistration)
    : registration && signing && 'secret' in signing
      ? shownRequest(job, registration, signing.secret, at)
      : { url: null, headers: null, body: row.envelope };
  return {
    ...toDeliveryView(row),
    request,
    attemptLog: attempts.map(toAttemptDetail),
    reply: { messageId: row.reply_message_id, error: row.reply_error },
  };
}

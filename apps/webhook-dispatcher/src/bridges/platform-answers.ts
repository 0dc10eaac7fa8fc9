import type { OutboundFailureKind } from '@app/common';
import type { BridgeKind } from '@app/contracts';
import { parseRetryAfter } from '../delivery/retry-policy';

/**
 * What a platform's answer to one post means for the delivery and for the bridge:
 * - `delivered`: posted. `nextPostAfterMs`: the platform said its budget is spent (Discord's
 *   `X-RateLimit-Remaining: 0`): the bridge's next post waits that long (penalize the limiter).
 * - `retry`: not posted, try again on the schedule, not before `afterMs` when the platform
 *   said how long (Retry-After, a 429 body): every replica should wait as long (penalize).
 * - `failed`: this post is refused for good and retrying the same bytes gets the same answer
 *   (a payload the platform cannot take: our bug, or too large): the delivery fails, the
 *   lane moves on, the bridge stays enabled. Retrying would hold back the bridge's ordered
 *   lane for the whole schedule (hours) for nothing; disabling it would cut the room off
 *   for one bad post. It is what a HipChat webhook's 4xx already means.
 * - `never`: the platform says the bridge itself is gone or forbidden (the webhook deleted,
 *   the channel archived, the token revoked): disable the bridge now, with `reason`.
 *
 * `reason` is short and names the platform's own code ("Slack: channel_is_archived");
 * where a platform's message is quoted it is cut to REASON_TEXT_MAX characters. It never
 * holds the URL. Redact the bridge's secrets from it as from any answer before showing it.
 */
export type PlatformAnswer =
  | { outcome: 'delivered'; nextPostAfterMs?: number }
  | { outcome: 'retry'; afterMs?: number; reason: string }
  | { outcome: 'failed'; reason: string }
  | { outcome: 'never'; reason: string };

/** A platform's HTTP answer: header names in lower case (as Node gives them), the body as text. */
export interface PlatformResponse {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

export const REASON_TEXT_MAX = 200;

/** How a platform's answer to a post is read; `now` for Retry-After given as an HTTP-date. */
export function classifyPlatformAnswer(kind: BridgeKind, res: PlatformResponse, now: Date = new Date()): PlatformAnswer {
  return RULES[kind](res, now);
}

/**
 * A post that got no answer: a timeout or a dropped connection is retried on the schedule
 * (the platform may or may not have posted it: see the README on repeated posts); the SSRF
 * guard's refusal or a URL that cannot be requested fails the post, as for a webhook (the
 * bridge's health disables it if it keeps failing).
 */
export function classifyPlatformFailure(failure: OutboundFailureKind): PlatformAnswer {
  if (failure === 'timeout' || failure === 'connection') return { outcome: 'retry', reason: failure };
  return { outcome: 'failed', reason: failure };
}

type Rule = (res: PlatformResponse, now: Date) => PlatformAnswer;

// Slack incoming webhooks: errors https://api.slack.com/messaging/webhooks#handling_errors
// (HTTP status with a plain-text code as the body), rate limits
// https://api.slack.com/apis/rate-limits ("Incoming webhooks: 1 per second"; 429 with Retry-After).
/** The codes that say the webhook, its channel or its workspace will not take posts again. */
const SLACK_NEVER = new Set([
  'no_service', 'no_service_id', 'no_active_hooks', 'invalid_token', 'channel_not_found', 'channel_is_archived',
  'action_prohibited', 'posting_to_general_channel_denied', 'team_disabled', 'no_team',
]);
const slack: Rule = (res, now) => {
  if (isSuccess(res.status)) return { outcome: 'delivered' };
  const code = res.body.trim().slice(0, 100);
  if (SLACK_NEVER.has(code)) return { outcome: 'never', reason: `Slack: ${code}` };
  // invalid_payload, too_many_attachments, user_not_found...: what we sent; unknown 4xx alike.
  return common('Slack', res, now, code);
};

// Discord webhooks: https://discord.com/developers/docs/resources/webhook#execute-webhook
// (204, or 200 with ?wait=true), error codes https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
// (10015 Unknown Webhook), rate limits https://discord.com/developers/docs/topics/rate-limits
// (429 body `retry_after` in seconds, a float; `X-RateLimit-Remaining`, `X-RateLimit-Reset-After`).
const discord: Rule = (res, now) => {
  const resetAfterMs = seconds(header(res, 'x-ratelimit-reset-after'));
  if (isSuccess(res.status)) {
    // The bucket is spent: the next post would be a 429. Wait out the reset instead.
    return header(res, 'x-ratelimit-remaining') === '0' && resetAfterMs !== null
      ? { outcome: 'delivered', nextPostAfterMs: resetAfterMs }
      : { outcome: 'delivered' };
  }
  const body = json(res.body) as { code?: unknown; message?: unknown; retry_after?: unknown; global?: unknown } | null;
  const said = [typeof body?.code === 'number' ? String(body.code) : '', typeof body?.message === 'string' ? quote(body.message) : ''].filter(Boolean).join(' ');
  if (res.status === 429) {
    const bodyMs = typeof body?.retry_after === 'number' ? seconds(String(body.retry_after)) : null;
    return retry(`Discord: HTTP 429${body?.global === true ? ' (global)' : ''}`, bodyMs, resetAfterMs, retryAfter(res, now));
  }
  // 401: the webhook's token is wrong (50027); 404: the webhook or its channel is gone (10015, 10003);
  // 403: it may no longer post there.
  if (res.status === 401 || res.status === 403 || res.status === 404) {
    return { outcome: 'never', reason: `Discord: HTTP ${res.status}${said ? ` ${said}` : ''}` };
  }
  return common('Discord', res, now, said);
};

// Microsoft Teams: incoming webhooks (Office 365 connectors) answer 200 with the body `1`,
// and report the channel's own refusal inside a 200 ("Microsoft Teams endpoint returned
// HTTP error 429 ..."); rate limits (4 per second, 60 per 30 s, 100 per hour per connector):
// https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#rate-limiting-for-connectors
// Workflows (Power Automate "When a Teams webhook request is received") answer 202:
// https://learn.microsoft.com/en-us/power-automate/teams/teams-app-create#create-a-workflow-from-a-template
const teams: Rule = (res, now) => {
  let status = res.status;
  let reason = `Microsoft Teams: HTTP ${status}${res.body.trim() ? ` ${quote(res.body)}` : ''}`;
  if (isSuccess(status)) {
    // Only a connector wraps an error in a 200: the number is what Teams answered the connector.
    const inner = /HTTP error (\d{3})/i.exec(res.body);
    if (!inner) return { outcome: 'delivered' };
    status = Number(inner[1]);
    reason = `Microsoft Teams: ${quote(res.body)}`;
  }
  if (status === 429 || status === 408 || status === 425 || status >= 500) return retry(reason, retryAfter(res, now));
  // The card (400 "Bad payload", 413 too large) is ours to fix: that post fails, the bridge
  // goes on. Any other 4xx (the connector removed or retired, the flow deleted or turned
  // off: 401, 403, 404, 410) says the URL will not take posts again.
  if (status >= 400 && status !== 400 && status !== 413) return { outcome: 'never', reason };
  return { outcome: 'failed', reason };
};

// Mattermost incoming webhooks: https://developers.mattermost.com/integrate/webhooks/incoming/
// (200 `ok`; errors as {id, message, status_code}: https://api.mattermost.com/#tag/errors),
// rate limiting (429 with Retry-After when the server's limiter is on):
// https://docs.mattermost.com/configure/environment-configuration-settings.html#rate-limiting
/** Error ids that say the webhook, its channel or the feature is gone. */
const MATTERMOST_NEVER = /^(web\.incoming_webhook\.(invalid|disabled|channel|channel_locked|permissions)|api\.post\.create_post\.can_not_post_to_deleted)/;
const mattermost: Rule = (res, now) => {
  if (isSuccess(res.status)) return { outcome: 'delivered' };
  const body = json(res.body) as { id?: unknown; message?: unknown } | null;
  const id = typeof body?.id === 'string' ? body.id : '';
  const said = [id, typeof body?.message === 'string' ? quote(body.message) : quote(res.body)].filter(Boolean).join(' ');
  // "Invalid webhook" is a 400 in older servers, 403/404 in others; webhooks switched off is a 501.
  if (MATTERMOST_NEVER.test(id) || res.status === 403 || res.status === 404 || /invalid webhook/i.test(res.body)) {
    return { outcome: 'never', reason: `Mattermost: HTTP ${res.status} ${said}`.trim() };
  }
  return common('Mattermost', res, now, said);
};

// Rocket.Chat incoming webhooks: https://docs.rocket.chat/docs/integrations#incoming-webhook
// (200 {"success": true}; {"success": false, "error": "..."} with 400 or 404), REST rate
// limiter (429, X-RateLimit-*): https://developer.rocket.chat/apidocs/rate-limiter
const rocketchat: Rule = (res, now) => {
  const body = json(res.body) as { success?: unknown; error?: unknown } | null;
  if (isSuccess(res.status)) {
    return body?.success === false
      ? { outcome: 'failed', reason: `Rocket.Chat: ${quote(String(body.error ?? 'success false'))}` }
      : { outcome: 'delivered' };
  }
  const said = typeof body?.error === 'string' ? quote(body.error) : quote(res.body);
  // The integration's id or token wrong, the integration disabled or deleted, its channel gone.
  if (res.status === 404 || res.status === 403 || res.status === 401
    || (res.status === 400 && body?.success === false && /integration|token|disabled|channel|not found|invalid-room/i.test(said))) {
    return { outcome: 'never', reason: `Rocket.Chat: HTTP ${res.status} ${said}`.trim() };
  }
  return common('Rocket.Chat', res, now, said);
};

// Google Chat incoming webhooks: https://developers.google.com/workspace/chat/quickstart/webhooks
// (200 with the Message), errors in Google's format {error: {code, message, status, details}}:
// https://cloud.google.com/apis/design/errors, limits (1 write per second per space, 429
// RESOURCE_EXHAUSTED): https://developers.google.com/workspace/chat/limits
const googlechat: Rule = (res, now) => {
  if (isSuccess(res.status)) return { outcome: 'delivered' };
  const error = (json(res.body) as { error?: { message?: unknown; status?: unknown; details?: Array<{ reason?: unknown }> } } | null)?.error;
  const status = typeof error?.status === 'string' ? error.status : '';
  const said = [status, typeof error?.message === 'string' ? quote(error.message) : ''].filter(Boolean).join(' ');
  const keyInvalid = Array.isArray(error?.details) && error.details.some((d) => d?.reason === 'API_KEY_INVALID');
  // 400 is most often the message (INVALID_ARGUMENT: ours to fix); with API_KEY_INVALID it is
  // the webhook's key. 401, 403 and 404: the webhook, its token or its space is gone.
  if (keyInvalid || res.status === 401 || res.status === 403 || res.status === 404) {
    return { outcome: 'never', reason: `Google Chat: HTTP ${res.status} ${said}`.trim() };
  }
  return common('Google Chat', res, now, said);
};

// Matrix client-server API: send https://spec.matrix.org/v1.12/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid
// (200 {event_id}), errors https://spec.matrix.org/v1.12/client-server-api/#standard-error-response
// (M_FORBIDDEN, M_UNKNOWN_TOKEN...), rate limiting https://spec.matrix.org/v1.12/client-server-api/#rate-limiting
// (429 M_LIMIT_EXCEEDED with `retry_after_ms`, and since v1.10 the Retry-After header).
/** What says the bot cannot post there again without a person's help. */
const MATRIX_NEVER = new Set(['M_FORBIDDEN', 'M_UNKNOWN_TOKEN', 'M_MISSING_TOKEN', 'M_USER_DEACTIVATED', 'M_UNRECOGNIZED', 'M_NOT_FOUND']);
const matrix: Rule = (res, now) => {
  if (isSuccess(res.status)) return { outcome: 'delivered' };
  const body = json(res.body) as { errcode?: unknown; error?: unknown; retry_after_ms?: unknown } | null;
  const errcode = typeof body?.errcode === 'string' ? body.errcode : '';
  const said = [errcode, typeof body?.error === 'string' ? quote(body.error) : ''].filter(Boolean).join(' ');
  if (res.status === 429 || errcode === 'M_LIMIT_EXCEEDED') {
    const bodyMs = typeof body?.retry_after_ms === 'number' && body.retry_after_ms >= 0 ? Math.ceil(body.retry_after_ms) : null;
    return retry(`Matrix: HTTP ${res.status} ${said}`.trim(), bodyMs, retryAfter(res, now));
  }
  // 401 is always the token (soft logout included: the bot's token must be replaced).
  if (MATRIX_NEVER.has(errcode) || res.status === 401 || res.status === 403) {
    return { outcome: 'never', reason: `Matrix: HTTP ${res.status} ${said}`.trim() };
  }
  return common('Matrix', res, now, said);
};

const RULES: Readonly<Record<BridgeKind, Rule>> = { slack, discord, teams, mattermost, rocketchat, googlechat, matrix };

/**
 * What every platform's other answers mean: 429, 408, 425 and 5xx are retried (not before
 * Retry-After, whatever the status); any other 4xx refuses this post (see `failed`).
 */
function common(platform: string, res: PlatformResponse, now: Date, said: string): PlatformAnswer {
  const reason = `${platform}: HTTP ${res.status}${said ? ` ${said}` : ''}`;
  if (res.status === 429 || res.status === 408 || res.status === 425 || res.status >= 500 || res.status < 200) {
    return retry(reason, retryAfter(res, now));
  }
  return { outcome: 'failed', reason };
}

/** A retry not before the longest wait the platform asked for, by any of the ways it says it. */
function retry(reason: string, ...waitsMs: Array<number | null>): PlatformAnswer {
  const said = waitsMs.filter((w): w is number => w !== null);
  return said.length > 0 ? { outcome: 'retry', afterMs: Math.max(...said), reason } : { outcome: 'retry', reason };
}

const isSuccess = (status: number) => status >= 200 && status <= 299;

function header(res: PlatformResponse, name: string): string | undefined {
  const exact = res.headers[name];
  if (exact !== undefined) return exact;
  for (const [k, v] of Object.entries(res.headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

const retryAfter = (res: PlatformResponse, now: Date): number | null => parseRetryAfter(header(res, 'retry-after'), now);

/** Seconds with a fraction ("0.352", as Discord sends them) as whole ms, rounded up; null if not that. */
function seconds(text: string | undefined): number | null {
  const v = text?.trim();
  if (!v || !/^\d+(\.\d+)?$/.test(v)) return null;
  return Math.ceil(Number(v) * 1000);
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A platform's own words, on one line and bounded. */
const quote = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > REASON_TEXT_MAX ? `${line.slice(0, REASON_TEXT_MAX)}…` : line;
};

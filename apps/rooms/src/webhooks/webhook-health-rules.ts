import { bareUrl, formatDuration } from '@app/common';
import { BRIDGE_PLATFORM_NAMES, BridgeTarget, HealthTally, v2Links } from '@app/contracts';

/** When a failing webhook is disabled (WEBHOOK_DISABLE_AFTER, WEBHOOK_DISABLE_MIN_FAILURES). */
export interface DisableThresholds {
  /** Every attempt has failed for at least this long (ms)... */
  afterMs: number;
  /** ...and at least this many times. */
  minFailures: number;
}

/**
 * Whether a webhook has failed long and often enough to be disabled: every attempt since
 * its first failure after its last success has failed, for at least `afterMs` (up to its
 * latest failure: what was seen, not how long nothing was tried), at least `minFailures` times.
 */
export function crossedThresholds(t: HealthTally, limits: DisableThresholds): boolean {
  if (t.failures < limits.minFailures || t.firstFailureAt === null || t.lastFailureAt === null) return false;
  return t.lastFailureAt - t.firstFailureAt >= limits.afterMs;
}

const iso = (t: number) => new Date(t).toISOString();

/** Why it was disabled, as `disabled_reason` keeps it (and the notice says it). */
export function disabledReason(t: HealthTally): string {
  const since = t.firstFailureAt ?? t.lastFailureAt ?? 0;
  const span = (t.lastFailureAt ?? since) - since;
  return `every delivery attempt since ${iso(since)} has failed (${t.failures} failures over ${formatDuration(span)}`
    + `${t.lastError ? `; last error: ${t.lastError}` : ''})`;
}

/** The webhook a notice is about. */
export interface DisabledWebhook {
  id: number;
  name: string;
  url: string;
  roomId: number | null;
  /** Set for a bridge: named by its platform, never by its URL (Slack's and Discord's carry their credential in the path). */
  bridge?: Pick<BridgeTarget, 'kind'> | null;
}

/** How to name a webhook to people: its name and id, and where it sends (no credentials, no query). */
export function describeWebhook(w: DisabledWebhook): string {
  if (w.bridge) {
    const platform = BRIDGE_PLATFORM_NAMES[w.bridge.kind];
    return `${w.name ? `"${w.name}" (${platform} bridge ${w.id})` : `${platform} bridge ${w.id}`}, which posts to ${platform}`;
  }
  return `${w.name ? `"${w.name}" (webhook ${w.id})` : `Webhook ${w.id}`}, which posts to ${bareUrl(w.url)}`;
}

/**
 * The notice of a disabled webhook, for its room (or, group-wide, for the log): which one,
 * why, and how to have it back. Plain text: it is posted as a text notification.
 */
export function disabledNotice(w: DisabledWebhook, reason: string): string {
  const enable = w.bridge && w.roomId !== null
    ? `POST ${v2Links('').bridge(w.roomId, w.id)}/enable`
    : w.roomId === null
      ? `cli webhook enable ${w.id}`
      : `POST ${v2Links('').webhookEnable(w.roomId, w.id)} (or cli webhook enable ${w.id})`;
  return `${describeWebhook(w)}, has been disabled: ${reason}. No more events are sent to it. `
    + `Once its receiver works again, enable it with ${enable}; the events it missed meanwhile are not sent by that.`;
}

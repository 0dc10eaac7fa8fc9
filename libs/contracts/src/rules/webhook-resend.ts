/**
 * Whether a webhook's deliveries may be sent again (redeliver, recover). A disabled webhook's
 * attempts end at the dispatcher as failed (`webhook disabled`) without a request, so sending
 * one again would be answered "queued" and do nothing but add a failed attempt to the log:
 * refused before anything is queued, saying how to enable it (each caller says it in its own
 * terms: the API's enable URL, the CLI's command).
 */

/** What a resend is asked of. */
export type ResendAction = 'redeliver' | 'recover';

/** The webhook as the rooms service reads it (WebhookView carries these). */
export interface ResendTarget {
  id: number;
  enabled: boolean;
  disabledReason: string | null;
}

/** Why `action` is refused for this webhook (or bridge: `noun`), naming it and what to do; undefined when it may go. */
export function resendRefusal(webhook: ResendTarget, action: ResendAction, howToEnable: string, noun: 'Webhook' | 'Bridge' = 'Webhook'): string | undefined {
  if (webhook.enabled) return undefined;
  const why = webhook.disabledReason ? ` (${webhook.disabledReason})` : '';
  return `${noun} ${webhook.id} is disabled${why}: enable it first (${howToEnable}), then ${action}.`;
}

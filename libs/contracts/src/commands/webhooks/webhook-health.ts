import { z } from 'zod';
import { WebhookView } from '../../models/webhook-registration';
import { HealthTally } from '../../rules/webhook-health';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { webhookRefSchema } from './find-webhooks';
import { idSchema } from '../../rules/ids';

const instant = z.string().datetime({ offset: true, message: 'must be an ISO-8601 date-time' });
const webhookId = idSchema;

/**
 * One webhook's attempts as a dispatcher replica saw them since its previous report (see
 * HealthTally, which this is on the wire): the latest success, the failures after it, the
 * first and last of those, and a short error (`HTTP 500`, `timeout`), never a body or a secret.
 */
export const webhookHealthReportSchema = z.object({
  webhookId,
  lastSuccessAt: instant.nullable(),
  failuresAfterSuccess: z.number().int().min(0).max(1_000_000_000),
  firstFailureAt: instant.nullable(),
  lastFailureAt: instant.nullable(),
  lastError: z.string().max(200).nullable(),
  /**
   * A bridge's platform said it will never take posts again (the webhook deleted, the channel
   * archived, the token revoked): disable it now, whatever the thresholds, with this reason
   * ("Slack: channel_is_archived"). Absent: the thresholds decide.
   */
  disableNow: z.string().min(1).max(200).optional(),
}).superRefine((r, ctx) => {
  if (r.failuresAfterSuccess > 0 && (r.firstFailureAt === null || r.lastFailureAt === null)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['firstFailureAt'], message: 'failures need the times of the first and the last' });
  }
});
export type WebhookHealthReport = z.output<typeof webhookHealthReportSchema>;

const msOf = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));
const isoOf = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A tally as it travels. */
export const reportOfTally = (webhookId: number, t: HealthTally): WebhookHealthReport => ({
  webhookId,
  lastSuccessAt: isoOf(t.lastSuccessAt),
  failuresAfterSuccess: t.failures,
  firstFailureAt: isoOf(t.firstFailureAt),
  lastFailureAt: isoOf(t.lastFailureAt),
  lastError: t.lastError === null ? null : t.lastError.slice(0, 200),
});

/** A report as a tally, to add up. */
export const tallyOfReport = (r: WebhookHealthReport): HealthTally => ({
  lastSuccessAt: msOf(r.lastSuccessAt),
  failures: r.failuresAfterSuccess,
  firstFailureAt: r.failuresAfterSuccess > 0 ? msOf(r.firstFailureAt) : null,
  lastFailureAt: msOf(r.lastFailureAt),
  lastError: r.lastError,
});

/**
 * The dispatchers' reports of their attempts, a few webhooks at a time (at most one report
 * per webhook a second from a replica, at once when it starts or stops failing). The rooms
 * service adds them to each webhook's health and disables, in the same transaction, the
 * webhooks that have failed long and often enough (WEBHOOK_DISABLE_AFTER,
 * WEBHOOK_DISABLE_MIN_FAILURES), telling their room. Answers the ids it disabled.
 */
export const ReportWebhookHealthV1 = defineCommand<{ disabled: number[] }>('webhooks.report-health.v1', z.object({
  reports: z.array(webhookHealthReportSchema).min(1).max(10_000),
}));

/**
 * Enables a webhook again and resets its health (no failures, not failing); what was not
 * sent while it was disabled is not sent now. Through the API: a room's webhook, with the
 * access rules of reading it. By the operator (`cli webhook enable`): any webhook by id,
 * group-wide ones included.
 */
export const EnableWebhookV1 = defineCommand<{ webhook: WebhookView }>('webhooks.enable-webhook.v1', z.union([
  z.object({ actor: actorSchema, room: roomRefSchema, webhook: webhookRefSchema }),
  z.object({ operator: z.literal(true), webhook: z.object({ id: webhookId }).strict() }),
]));

/**
 * The operator's view (`cli webhook list`): every webhook with its health, group-wide ones
 * included, or those of one room, or the one with an id (none when no such webhook is
 * registered). Not exposed through the API. (A rooms service older than `id` ignores it and
 * answers every webhook: a caller that asks for one finds it among them.)
 */
export const ListAllWebhooksV1 = defineCommand<{ webhooks: WebhookView[] }>('webhooks.list-all-webhooks.v1', z.object({
  room: roomRefSchema.optional(),
  id: webhookId.optional(),
}), { query: true });

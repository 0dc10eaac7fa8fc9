import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger, bareUrl, type CommandMeta } from '@app/common';
import {
  Actor, CommandFailure, mergeHealth, ReplyOf, ReportWebhookHealthV1, RequestOf, tallyOfReport, WebhookHealthReport, WebhookRegistrationsChangedV1,
} from '@app/contracts';
import { RoomsConfig } from '../../config';
import { Tx, UnitOfWork } from '../../outbox/unit-of-work';
import { SendNotification } from '../../rooms/send-notification/send-notification.usecase';
import { ROOMS_CONFIG } from '../../shared/infrastructure.module';
import { WebhookHealthRepository } from '../webhook-health.repository';
import { crossedThresholds, DisableThresholds, disabledNotice, disabledReason } from '../webhook-health-rules';
import { StoredWebhook, WebhookRepository } from '../webhook.repository';
import { AuditRepository } from '../../audit/audit.repository';
import { bridgeSubject, webhookSubject } from '../../audit/audit-line';

/**
 * The bridges whose platform said they will never take posts again (`disableNow`), with the
 * platform's reason: disabled at once, on the same path as those that crossed the thresholds.
 */
export function platformRefusals(reports: readonly WebhookHealthReport[]): Map<number, string> {
  const gone = new Map<number, string>();
  for (const r of reports) if (r.disableNow) gone.set(r.webhookId, r.disableNow);
  return gone;
}

/** Who posts the notice of a disabled webhook: the service itself (no token, no user). */
export const WEBHOOK_NOTICE_FROM = 'Webhooks';
const SERVICE_ACTOR: Actor = { label: WEBHOOK_NOTICE_FROM };

/**
 * Adds the dispatchers' reports to each webhook's health, then disables, in the same
 * transaction, every enabled webhook of the report that has failed long and often enough
 * (or, a bridge, whose platform said it will never take posts again: `disableNow`),
 * and tells its room with a notification (posted as any notification is, so it is in the
 * room's history and reaches the room's other webhooks); a group-wide webhook has no room
 * to tell: the log says it. Applied once by its command id (a report redelivered after a
 * crash adds nothing twice).
 */
@Injectable()
export class ReportWebhookHealth {
  private readonly limits: DisableThresholds;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly health: WebhookHealthRepository,
    private readonly webhooks: WebhookRepository,
    private readonly notifications: SendNotification,
    @Inject(ROOMS_CONFIG) config: RoomsConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly audit: AuditRepository,
  ) {
    this.limits = { afterMs: config.WEBHOOK_DISABLE_AFTER, minFailures: config.WEBHOOK_DISABLE_MIN_FAILURES };
  }

  execute(cmd: RequestOf<typeof ReportWebhookHealthV1>, meta: CommandMeta): Promise<ReplyOf<typeof ReportWebhookHealthV1>> {
    return this.uow.apply(meta, async (tx) => {
      const kept = await this.health.lock(tx.manager, cmd.reports.map((r: WebhookHealthReport) => r.webhookId));
      for (const report of cmd.reports as WebhookHealthReport[]) {
        const k = kept.get(report.webhookId);
        // Deleted since the attempt: nothing to keep.
        if (k) k.tally = mergeHealth(k.tally, tallyOfReport(report), k.resetAt);
      }
      await this.health.save(tx.manager, [...kept.values()]);

      const disabled: number[] = [];
      const gone = platformRefusals(cmd.reports as WebhookHealthReport[]);
      for (const k of kept.values()) {
        const refusal = gone.get(k.webhookId);
        if (!k.enabled || (refusal === undefined && !crossedThresholds(k.tally, this.limits))) continue;
        const reason = refusal ?? disabledReason(k.tally);
        const webhook = await this.webhooks.disable(tx.manager, k.webhookId, reason);
        if (!webhook) continue;
        disabled.push(webhook.id);
        const details = { roomId: webhook.roomId, reason, cause: refusal === undefined ? 'failures' : 'platform' };
        await this.audit.append(tx.manager, undefined, webhook.bridge
          ? { action: 'bridge.disabled', target: bridgeSubject({ id: webhook.id, name: webhook.name, kind: webhook.bridge.kind }), details }
          : { action: 'webhook.disabled', target: webhookSubject(webhook), details });
        tx.emit(WebhookRegistrationsChangedV1, { roomId: webhook.roomId, webhookIds: [webhook.id] });
        await this.tell(tx, webhook, reason);
      }
      return { disabled };
    });
  }

  private async tell(tx: Tx, webhook: StoredWebhook, reason: string): Promise<void> {
    const text = disabledNotice(webhook, reason);
    // A bridge's URL is its credential (Slack, Discord): the log names its platform instead.
    const line = { webhookId: webhook.id, roomId: webhook.roomId, ...(webhook.bridge ? { bridgeKind: webhook.bridge.kind } : { url: bareUrl(webhook.url) }), reason };
    if (webhook.roomId === null) {
      this.logger.warn(line, text);
      return;
    }
    this.logger.info(line, 'webhook disabled');
    try {
      await this.notifications.postWithin(tx, {
        actor: SERVICE_ACTOR, room: { id: webhook.roomId }, from: WEBHOOK_NOTICE_FROM, message: text, messageFormat: 'text',
        notify: true, color: 'red',
      });
    } catch (err) {
      // A room that takes no posts (archived) does not keep its webhook enabled: the log tells instead.
      if (!(err instanceof CommandFailure)) throw err;
      this.logger.warn({ ...line, problem: err.error.reason }, `${text} (not posted in its room: ${err.error.reason})`);
    }
  }
}

import { Injectable } from '@nestjs/common';
import { type CommandMeta, SecretBox } from '@app/common';
import { EnableWebhookV1, ReplyOf, RequestOf, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { WebhookHealthRepository } from '../webhook-health.repository';
import { isWebhookCreator } from '../../rooms/room-access';
import { readableWebhook } from '../readable-webhook';
import { webhookReplyStorage } from '../register-webhook';
import { webhookNotFound } from '../webhook-rules';
import { StoredWebhook, toWebhookView, WebhookRepository } from '../webhook.repository';
import { AuditRepository } from '../../audit/audit.repository';
import { WebhookAccessSteps } from '../lost-access/webhook-access-steps';
import { webhookSubject } from '../../audit/audit-line';

/**
 * Enables a webhook again and resets its health. Enabling is a registration change (in
 * force on every dispatcher replica when this answers); enabling one that is enabled changes
 * no registration, and still resets its health. Nothing missed while it was disabled is sent.
 * An add-on's webhook may be enabled too: that changes nothing it declared.
 */
@Injectable()
export class EnableWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhookRepository,
    private readonly health: WebhookHealthRepository,
    private readonly audit: AuditRepository,
    private readonly steps: WebhookAccessSteps,
    private readonly box: SecretBox,
  ) {}

  execute(cmd: RequestOf<typeof EnableWebhookV1>, meta: CommandMeta): Promise<ReplyOf<typeof EnableWebhookV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const { webhook, masked } = await this.find(m, cmd);
      if (!webhook.enabled && webhook.roomId !== null) await this.steps.assertCreatorMayRead(m, webhook.roomId, webhook.id);
      // In the order a report locks them: the webhook (key share), its health row, then the
      // webhook's update. One deleted since it was read resets nothing and is not found below.
      await this.health.reset(m, webhook.id);
      if (await this.webhooks.enable(m, webhook.id)) emit(WebhookRegistrationsChangedV1, { roomId: webhook.roomId, webhookIds: [webhook.id] });
      if (!webhook.enabled) await this.audit.append(m, 'operator' in cmd ? { label: 'cli' } : cmd.actor, { action: 'webhook.enabled', target: webhookSubject(webhook), details: { roomId: webhook.roomId, wasDisabledFor: webhook.disabledReason } });
      const now = await this.webhooks.findAnyById(m, webhook.id);
      if (!now) throw webhookNotFound({ id: webhook.id });
      return { webhook: toWebhookView(now, masked) };
    }, webhookReplyStorage(this.box));
  }

  /** Through the API: a webhook of the room, as reading it finds it; by the operator: any, by id. */
  private async find(m: EntityManager, cmd: RequestOf<typeof EnableWebhookV1>): Promise<{ webhook: StoredWebhook; masked: boolean }> {
    if ('operator' in cmd) {
      const webhook = await this.webhooks.findAnyById(m, cmd.webhook.id);
      if (!webhook) throw webhookNotFound(cmd.webhook);
      // The CLI masks what it prints (maskedUrl).
      return { webhook, masked: false };
    }
    const { webhook, viewer } = await readableWebhook(this.webhooks, m, cmd.room, cmd.actor, cmd.webhook);
    return { webhook, masked: !isWebhookCreator(viewer, webhook) };
  }
}

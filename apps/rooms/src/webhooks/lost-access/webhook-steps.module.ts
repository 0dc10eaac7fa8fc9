import { Module } from '@nestjs/common';
import { WebhookAccessSteps } from './webhook-access-steps';

/**
 * The webhook steps other modules run in their transactions (what losing access does to
 * webhooks, and the check of a webhook's reply). Imports nothing, so that the rooms, users
 * and add-ons modules import it without a circle.
 */
@Module({
  providers: [WebhookAccessSteps],
  exports: [WebhookAccessSteps],
})
export class WebhookStepsModule {}

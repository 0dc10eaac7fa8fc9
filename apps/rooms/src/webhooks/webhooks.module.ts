import { Module } from '@nestjs/common';
import { RoomsModule } from '../rooms/rooms.module';
import { WebhookStepsModule } from './lost-access/webhook-steps.module';
import { CreateWebhook } from './create-webhook/create-webhook.usecase';
import { DeleteWebhook } from './delete-webhook/delete-webhook.usecase';
import { EnableWebhook } from './enable-webhook/enable-webhook.usecase';
import { GetWebhook } from './get-webhook/get-webhook.usecase';
import { ListAllWebhooks } from './list-all-webhooks/list-all-webhooks.usecase';
import { ListRegistrationChanges } from './list-registration-changes/list-registration-changes.usecase';
import { ListRegistrations } from './list-registrations/list-registrations.usecase';
import { ListWebhooks } from './list-webhooks/list-webhooks.usecase';
import { PutWebhook } from './put-webhook/put-webhook.usecase';
import { RegisterWebhook } from './register-webhook';
import { ReportWebhookHealth } from './report-health/report-health.usecase';
import { WebhooksHandlers } from './webhooks.handlers';

/**
 * Webhook registrations of rooms (REST API), the dispatchers' snapshot of them all (and of
 * their changes), and their health. Imports the rooms module for SendNotification: a webhook
 * disabled for failing tells its room.
 */
@Module({
  imports: [RoomsModule, WebhookStepsModule],
  controllers: [WebhooksHandlers],
  providers: [
    RegisterWebhook, CreateWebhook, PutWebhook, ListWebhooks, GetWebhook, DeleteWebhook, ListRegistrations,
    ListRegistrationChanges, ReportWebhookHealth, EnableWebhook, ListAllWebhooks,
  ],
})
export class WebhooksModule {}

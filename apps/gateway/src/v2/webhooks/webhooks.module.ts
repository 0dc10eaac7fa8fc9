import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhooksController } from './webhooks.controller';

/**
 * `/v2/room/{room}/webhook` and `/v2/room/{room}/extension/webhook/{key}`: a room's webhook
 * registrations; `/v2/room/{room}/webhook/{id}/delivery`: a webhook's delivery log.
 */
@Module({
  imports: [V2CoreModule],
  controllers: [WebhooksController, WebhookDeliveriesController],
})
export class V2WebhooksModule {}

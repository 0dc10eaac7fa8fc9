import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { WebhooksController } from './webhooks.controller';

/** `/v2/room/{room}/webhook` and `/v2/room/{room}/extension/webhook/{key}`: a room's webhook registrations. */
@Module({
  imports: [V2CoreModule],
  controllers: [WebhooksController],
})
export class V2WebhooksModule {}

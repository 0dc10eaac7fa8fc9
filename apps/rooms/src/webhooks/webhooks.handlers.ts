import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import {
  CreateWebhookV1, DeleteWebhookV1, EnableWebhookV1, GetWebhookV1, ListAllWebhooksV1, ListRegistrationChangesV1, ListRegistrationsV1, ListWebhooksV1,
  PutWebhookV1, ReportWebhookHealthV1, RequestOf,
} from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { CreateWebhook } from './create-webhook/create-webhook.usecase';
import { DeleteWebhook } from './delete-webhook/delete-webhook.usecase';
import { EnableWebhook } from './enable-webhook/enable-webhook.usecase';
import { GetWebhook } from './get-webhook/get-webhook.usecase';
import { ListAllWebhooks } from './list-all-webhooks/list-all-webhooks.usecase';
import { ListRegistrationChanges } from './list-registration-changes/list-registration-changes.usecase';
import { ListRegistrations } from './list-registrations/list-registrations.usecase';
import { ListWebhooks } from './list-webhooks/list-webhooks.usecase';
import { PutWebhook } from './put-webhook/put-webhook.usecase';
import { ReportWebhookHealth } from './report-health/report-health.usecase';

/** Transport edge of webhook registrations: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class WebhooksHandlers {
  constructor(
    private readonly createWebhook: CreateWebhook,
    private readonly putWebhook: PutWebhook,
    private readonly listWebhooks: ListWebhooks,
    private readonly getWebhook: GetWebhook,
    private readonly deleteWebhook: DeleteWebhook,
    private readonly listRegistrations: ListRegistrations,
    private readonly listRegistrationChanges: ListRegistrationChanges,
    private readonly reportHealth: ReportWebhookHealth,
    private readonly enableWebhook: EnableWebhook,
    private readonly listAllWebhooks: ListAllWebhooks,
  ) {}

  @MessagePattern(CreateWebhookV1.pattern)
  create(@Payload(new CommandPipe(CreateWebhookV1)) c: RequestOf<typeof CreateWebhookV1>, @Ctx() ctx: CommandContext) { return this.createWebhook.execute(c, ctx.meta); }

  @MessagePattern(PutWebhookV1.pattern)
  put(@Payload(new CommandPipe(PutWebhookV1)) c: RequestOf<typeof PutWebhookV1>, @Ctx() ctx: CommandContext) { return this.putWebhook.execute(c, ctx.meta); }

  @MessagePattern(ListWebhooksV1.pattern)
  list(@Payload(new CommandPipe(ListWebhooksV1)) c: RequestOf<typeof ListWebhooksV1>) { return this.listWebhooks.execute(c); }

  @MessagePattern(GetWebhookV1.pattern)
  get(@Payload(new CommandPipe(GetWebhookV1)) c: RequestOf<typeof GetWebhookV1>) { return this.getWebhook.execute(c); }

  @MessagePattern(DeleteWebhookV1.pattern)
  delete(@Payload(new CommandPipe(DeleteWebhookV1)) c: RequestOf<typeof DeleteWebhookV1>, @Ctx() ctx: CommandContext) { return this.deleteWebhook.execute(c, ctx.meta); }

  @MessagePattern(ListRegistrationsV1.pattern)
  registrations(@Payload(new CommandPipe(ListRegistrationsV1)) c: RequestOf<typeof ListRegistrationsV1>) { return this.listRegistrations.execute(c); }

  @MessagePattern(ListRegistrationChangesV1.pattern)
  registrationChanges(@Payload(new CommandPipe(ListRegistrationChangesV1)) c: RequestOf<typeof ListRegistrationChangesV1>) { return this.listRegistrationChanges.execute(c); }

  @MessagePattern(ReportWebhookHealthV1.pattern)
  report(@Payload(new CommandPipe(ReportWebhookHealthV1)) c: RequestOf<typeof ReportWebhookHealthV1>, @Ctx() ctx: CommandContext) { return this.reportHealth.execute(c, ctx.meta); }

  @MessagePattern(EnableWebhookV1.pattern)
  enable(@Payload(new CommandPipe(EnableWebhookV1)) c: RequestOf<typeof EnableWebhookV1>, @Ctx() ctx: CommandContext) { return this.enableWebhook.execute(c, ctx.meta); }

  @MessagePattern(ListAllWebhooksV1.pattern)
  listAll(@Payload(new CommandPipe(ListAllWebhooksV1)) c: RequestOf<typeof ListAllWebhooksV1>) { return this.listAllWebhooks.execute(c); }
}

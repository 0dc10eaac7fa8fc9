import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { ListAuditV1, RecordSignInThrottledV1, RequestOf } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { ListAudit } from './list-audit/list-audit.usecase';
import { RecordSignInThrottled } from './record-sign-in-throttled/record-sign-in-throttled.usecase';

/** Transport edge of the audit log: reading it, and the gateways' sign-in throttling. */
@Controller()
export class AuditHandlers {
  constructor(private readonly listAudit: ListAudit, private readonly recordThrottled: RecordSignInThrottled) {}

  @MessagePattern(ListAuditV1.pattern)
  list(@Payload(new CommandPipe(ListAuditV1)) c: RequestOf<typeof ListAuditV1>) { return this.listAudit.execute(c); }

  @MessagePattern(RecordSignInThrottledV1.pattern)
  throttled(@Payload(new CommandPipe(RecordSignInThrottledV1)) c: RequestOf<typeof RecordSignInThrottledV1>, @Ctx() ctx: CommandContext) {
    return this.recordThrottled.execute(c, ctx.meta);
  }
}

import { Module } from '@nestjs/common';
import { AuditHandlers } from './audit.handlers';
import { AuditPruner } from './audit-pruner';
import { ListAudit } from './list-audit/list-audit.usecase';
import { RecordSignInThrottled } from './record-sign-in-throttled/record-sign-in-throttled.usecase';

/** The audit log: read (v2, CLI), the gateways' throttling recorded, pruned. Its repository is infrastructure (every use case writes to it). */
@Module({
  controllers: [AuditHandlers],
  providers: [ListAudit, RecordSignInThrottled, AuditPruner],
})
export class AuditModule {}

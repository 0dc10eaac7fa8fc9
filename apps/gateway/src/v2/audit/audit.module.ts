import { Module } from '@nestjs/common';
import { V2CoreModule } from '../v2-core.module';
import { AuditController } from './audit.controller';

/** `/v2/audit`: the audit log, for group admins. */
@Module({
  imports: [V2CoreModule],
  controllers: [AuditController],
})
export class V2AuditModule {}

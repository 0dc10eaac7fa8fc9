import { Get, Query } from '@nestjs/common';
import { Actor, AuditEntryView, ListAuditV1, v2Links } from '@app/contracts';
import { Notes, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { PageListQuery, pageListQuery } from '../http/pagination';
import { V2Query } from '../http/validation';
import { auditListResponse } from './audit.schemas';

/** `/v2/audit` (our extension): who changed access, newest first. The rooms service decides who may read it. */
@V2Controller('audit')
export class AuditController extends V2Resource {
  @Get()
  @Summary('The audit log: who changed access, newest first')
  @RequireScopes('admin_group')
  @ResponseSchema(auditListResponse)
  @Notes('Our extension. Group admins only (403 for anyone else, add-on tokens included). Membership, ownership, privacy, archiving and deletion of rooms; promotion, demotion and deletion of users; tokens made and revoked; webhooks and add-ons created, deleted, enabled and disabled (with the reason); throttled sign-ins. Kept AUDIT_RETENTION_DAYS (90 by default).')
  list(@V2Query(pageListQuery) q: PageListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').audit, async (w) => (await this.rooms.send(ListAuditV1, { actor, ...w })).items, (line: AuditEntryView) => line);
  }
}

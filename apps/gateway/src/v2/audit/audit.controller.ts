import { Get, Query } from '@nestjs/common';
import { Actor, AuditEntryView, ListAuditV1, v2Links } from '@app/contracts';
import { Notes, OtherAnswers, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Query } from '../http/validation';
import { AuditListQuery, auditListQuery, auditListResponse } from './audit.schemas';

/** `/v2/audit` (our extension): who changed access, newest first. The rooms service decides who may read it. */
@V2Controller('audit')
export class AuditController extends V2Resource {
  @Get()
  @Summary('The audit log: who changed access, newest first')
  @RequireScopes('admin_group')
  @ResponseSchema(auditListResponse)
  @Notes('Our extension. Group admins only (403 for anyone else, add-on tokens included). Membership, ownership, privacy, archiving and deletion of rooms; users added, invited, accepting their invitation, promoted, demoted and deleted; tokens made and revoked; webhooks, bridges and add-ons created, deleted, enabled and disabled (with the reason); throttled sign-ins. Kept AUDIT_RETENTION_DAYS (90 by default). Filters, all of them together: `actor` (a user by id, e-mail address or @mention name: the lines of their doing), `action` (one of the actions above), `room` (a room id: lines about the room and about its webhooks, bridges and add-ons), `since` (inclusive) and `until` (exclusive), each an ISO 8601 instant or a date (UTC; `until` a date means through its end). The paging links keep them.')
  @OtherAnswers({ 400: 'A filter is not valid (the message names it), or until is not after since.', 404: 'No user by the actor named.' })
  list(@V2Query(auditListQuery) q: AuditListQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    const filter = { by: q.actor, action: q.action, roomId: q.room, since: q.since, until: q.until };
    return this.page(q, raw, v2Links('').audit, async (w) => (await this.rooms.send(ListAuditV1, { actor, ...w, filter })).items, (line: AuditEntryView) => line);
  }
}

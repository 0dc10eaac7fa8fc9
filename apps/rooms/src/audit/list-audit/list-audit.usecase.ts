import { Injectable } from '@nestjs/common';
import { commandFailure, ListAuditV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { UserRepository } from '../../users/user.repository';
import { AuditRepository } from '../audit.repository';

/** A page of the audit log, newest first: a group admin's or the operator's to read (see ListAuditV1). */
@Injectable()
export class ListAudit {
  constructor(private readonly db: DataSource, private readonly audit: AuditRepository, private readonly users: UserRepository) {}

  async execute(cmd: RequestOf<typeof ListAuditV1>): Promise<ReplyOf<typeof ListAuditV1>> {
    if (!(await this.audit.mayRead(this.db.manager, cmd.actor))) {
      throw commandFailure('forbidden', 'not_allowed', 'actor', { message: 'Only group admins may read the audit log.' });
    }
    const { by, ...rest } = cmd.filter ?? {};
    // Deleted users too: their lines stay in the log.
    const actorUserId = by === undefined ? undefined : (await this.users.findByRef(this.db.manager, by, { field: 'actor' })).id;
    return { items: await this.audit.listPage(this.db.manager, cmd.startIndex, cmd.limit, { ...rest, actorUserId }) };
  }
}

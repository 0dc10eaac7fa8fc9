import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { Actor, TokenRevokedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { TokenRepository } from '../token.repository';
import { AuditRepository } from '../../audit/audit.repository';

export interface RevokeTokenCommand {
  id: number;
  /** Who revokes (the audit log's actor): the operator's CLI when absent. */
  actor?: Actor;
}

/**
 * Revokes by id (false when there is no such live token). `token.revoked.v1` is written
 * with it, and the answer waits for its publication, so every gateway replica drops the
 * token from its cache before the revocation is reported done.
 */
@Injectable()
export class RevokeToken {
  constructor(private readonly uow: UnitOfWork, private readonly tokens: TokenRepository, private readonly audit: AuditRepository) {}

  execute(cmd: RevokeTokenCommand, meta: CommandMeta): Promise<boolean> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const target = await this.audit.subjectOf(m, 'token', cmd.id);
      const revoked = await this.tokens.revoke(m, cmd.id);
      if (revoked) await this.audit.append(m, cmd.actor ?? { label: 'cli' }, { action: 'token.revoked', target });
      if (revoked) emit(TokenRevokedV1, { tokenId: cmd.id });
      return revoked;
    }, { replyAfterPublish: true });
  }
}

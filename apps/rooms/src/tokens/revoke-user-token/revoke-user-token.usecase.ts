import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, ReplyOf, RequestOf, RevokeUserTokenV1, TokenRevokedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { UserRepository } from '../../users/user.repository';
import { TokenRepository } from '../token.repository';
import { AuditRepository } from '../../audit/audit.repository';
import { tokenSubject } from '../../audit/audit-line';

/**
 * Revokes a token the caller may see (their personal tokens; v1 tokens for a group admin),
 * as `cli token revoke` does: `token.revoked.v1` in the same transaction, and the answer
 * once it is published, so that no gateway replica still accepts the token. Any other id
 * is not found, whoever's it is.
 */
@Injectable()
export class RevokeUserToken {
  constructor(private readonly uow: UnitOfWork, private readonly users: UserRepository, private readonly tokens: TokenRepository, private readonly audit: AuditRepository) {}

  execute(cmd: RequestOf<typeof RevokeUserTokenV1>, meta: CommandMeta): Promise<ReplyOf<typeof RevokeUserTokenV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const user = await this.users.findByRef(m, { id: cmd.userId }, { live: true, field: 'actor' });
      const token = await this.tokens.findVisible(m, cmd.tokenId, user.id, user.isGroupAdmin);
      if (!token || !(await this.tokens.revoke(m, token.id))) throw commandFailure('not_found', 'token_not_found', 'token', { ref: String(cmd.tokenId) });
      await this.audit.append(m, cmd.actor ?? { label: 'API', userId: user.id }, { action: 'token.revoked', target: tokenSubject(token), details: { kind: token.kind } });
      emit(TokenRevokedV1, { tokenId: token.id });
      return {};
    }, { replyAfterPublish: true });
  }
}

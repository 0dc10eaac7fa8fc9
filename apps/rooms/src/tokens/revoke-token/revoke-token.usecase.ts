import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { TokenRevokedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { TokenRepository } from '../token.repository';

export interface RevokeTokenCommand {
  id: number;
}

/**
 * Revokes by id (false when there is no such live token). `token.revoked.v1` is written
 * with it, and the answer waits for its publication, so every gateway replica drops the
 * token from its cache before the revocation is reported done.
 */
@Injectable()
export class RevokeToken {
  constructor(private readonly uow: UnitOfWork, private readonly tokens: TokenRepository) {}

  execute(cmd: RevokeTokenCommand, meta: CommandMeta): Promise<boolean> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const revoked = await this.tokens.revoke(m, cmd.id);
      if (revoked) emit(TokenRevokedV1, { tokenId: cmd.id });
      return revoked;
    }, { replyAfterPublish: true });
  }
}

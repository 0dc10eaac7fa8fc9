import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { ReplyOf, RequestOf, SignOutV1, TokenRevokedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { SessionRepository } from '../session.repository';

/**
 * Ends a session: revoked as a token is, with `token.revoked.v1`, answered once that is
 * published so that no gateway replica still accepts the cookie. Ending it twice is fine.
 */
@Injectable()
export class SignOut {
  constructor(private readonly uow: UnitOfWork, private readonly sessions: SessionRepository) {}

  execute(cmd: RequestOf<typeof SignOutV1>, meta: CommandMeta): Promise<ReplyOf<typeof SignOutV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      if (await this.sessions.revoke(m, cmd.sessionId)) emit(TokenRevokedV1, { tokenId: cmd.sessionId });
      return {};
    }, { replyAfterPublish: true });
  }
}

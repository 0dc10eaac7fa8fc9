import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { CreateUserTokenV1, ReplyOf, RequestOf } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { UserRepository } from '../../users/user.repository';
import { TokenRepository } from '../token.repository';
import { checkNewUserToken } from '../user-token-rules';
import { AuditRepository } from '../../audit/audit.repository';

/**
 * A token a user makes through the tokens API (see checkNewUserToken for what they may
 * make). The gateway made the clear token; only its hash arrives here.
 */
@Injectable()
export class CreateUserToken {
  constructor(private readonly uow: UnitOfWork, private readonly users: UserRepository, private readonly tokens: TokenRepository, private readonly audit: AuditRepository) {}

  execute(cmd: RequestOf<typeof CreateUserTokenV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateUserTokenV1>> {
    return this.uow.apply(meta, async ({ manager: m }) => {
      // FOR SHARE: a demotion from group admin commits before or after this token, not during.
      const user = await this.users.findByRef(m, { id: cmd.userId }, { live: true, lockShared: true, field: 'actor' });
      const scopes = checkNewUserToken(cmd, user.isGroupAdmin);
      const id = await this.tokens.insert(m, {
        tokenHash: cmd.tokenHash, kind: cmd.kind, label: cmd.label, userId: cmd.kind === 'personal' ? user.id : null, roomId: null, scopes,
      });
      await this.audit.append(m, cmd.actor ?? { label: 'API', userId: user.id }, { action: 'token.created', target: { type: 'token', id, name: cmd.label }, details: { kind: cmd.kind, scopes } });
      return { token: await this.tokens.view(m, id) };
    });
  }
}

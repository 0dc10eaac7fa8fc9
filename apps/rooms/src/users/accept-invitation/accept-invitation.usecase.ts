import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { AcceptInvitationV1, ReplyOf, RequestOf, TokenRevokedV1 } from '@app/contracts';
import { AuditRepository } from '../../audit/audit.repository';
import { userSubject } from '../../audit/audit-line';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { PresentationContext, toUserView } from '../../shared/presentation';
import { InvitationRepository } from '../invitation.repository';
import { hashPassword } from '../passwords';
import { SessionRepository } from '../session.repository';
import { UserRepository } from '../user.repository';

/**
 * An invitation accepted (see AcceptInvitationV1): in one transaction the invitation is taken
 * (so a second use of the link, even at the same moment, finds nothing), the password set,
 * every earlier session of the user ended (as any password change ends them), and the new
 * session stored. The password is hashed (scrypt) before the transaction, as SignIn does.
 */
@Injectable()
export class AcceptInvitation {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly invitations: InvitationRepository,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof AcceptInvitationV1>, meta: CommandMeta): Promise<ReplyOf<typeof AcceptInvitationV1>> {
    const passwordHash = await hashPassword(cmd.password);
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const taken = await this.invitations.take(m, cmd.tokenHash);
      // Held FOR SHARE: a deletion committed meanwhile waits, or is seen (null) and the link answers as unknown.
      if (!taken || (await this.sessions.lockCredentials(m, taken.userId)) === null) return { session: null };
      await this.users.setPasswordHash(m, taken.userId, passwordHash);
      for (const tokenId of await this.sessions.revokeAllOf(m, taken.userId)) emit(TokenRevokedV1, { tokenId });
      await this.sessions.pruneEnded(m, taken.userId);
      const session = await this.sessions.insert(m, { userId: taken.userId, tokenHash: cmd.sessionHash, ttlSeconds: cmd.ttlSeconds });
      const user = await this.users.findByRef(m, { id: taken.userId });
      await this.audit.append(m, { label: user.name, userId: user.id, address: cmd.address }, { action: 'user.invitation_accepted', target: userSubject(user) });
      return { session: { id: session.id, expires: session.expires.toISOString(), user: toUserView(user, this.ctx) } };
    }, { replyAfterPublish: true });
  }
}

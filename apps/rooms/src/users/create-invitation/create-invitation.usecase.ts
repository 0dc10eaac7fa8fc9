import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, INVITATION_TTL_SECONDS, CreateInvitationV1, ReplyOf, RequestOf } from '@app/contracts';
import { AuditRepository } from '../../audit/audit.repository';
import { userSubject } from '../../audit/audit-line';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { assertNotConfined } from '../../rooms/room-access';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { PresentationContext, toUserView } from '../../shared/presentation';
import { InvitationRepository } from '../invitation.repository';
import { UserRepository } from '../user.repository';

/**
 * An invitation for a live user to choose their own password (see CreateInvitationV1). Only the
 * link secret's hash reaches this service; the audit line names the user and when the link
 * expires, never the link.
 */
@Injectable()
export class CreateInvitation {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly invitations: InvitationRepository,
    private readonly audit: AuditRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof CreateInvitationV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateInvitationV1>> {
    assertNotConfined(cmd.actor, 'invite a user');
    return this.uow.apply(meta, async ({ manager: m }) => {
      // Locked: a deletion committed meanwhile is not outlived by a link made for the user it deleted.
      const user = await this.users.findByRef(m, cmd.user, { live: true, lock: true });
      if (user.isGuest) throw commandFailure('invalid', 'rule', 'user', { problem: 'is a guest: guests enter through a room\'s guest link, not an invitation' });
      const expires = (await this.invitations.replace(m, user.id, cmd.tokenHash, INVITATION_TTL_SECONDS)).toISOString();
      await this.audit.append(m, cmd.actor, { action: 'user.invited', target: userSubject(user), details: { expires } });
      return { user: toUserView(user, this.ctx), expires };
    });
  }
}

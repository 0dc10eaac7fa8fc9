import { CommandMeta, generateApiToken, hashApiToken } from '@app/common';
import { CommandFailure, describeRef, invitationUrl, parseUserRef } from '@app/contracts';
import { AuditRepository } from '../audit/audit.repository';
import { UnitOfWork } from '../outbox/unit-of-work';
import { PresentationContext } from '../shared/presentation';
import { CreateInvitation } from '../users/create-invitation/create-invitation.usecase';
import { InvitationRepository } from '../users/invitation.repository';
import { UserRepository } from '../users/user.repository';

export const USER_USAGE = `  cli user invite ID|EMAIL|@MENTION                            an invitation link for that user to choose their password (used once,
                                                              7 days; replaces their last one), printed alone on stdout`;

/** Not a broker command: nothing to apply once, no deadline. */
const CLI_META: CommandMeta = { pattern: 'cli', commandId: '', deadline: 0, redelivered: false };

export interface MadeInvitation { url: string; expires: string; user: { id: number; name: string; email: string } }

/**
 * `cli user invite`: the invitation use case run in this process, as the operator (the audit
 * log names the CLI). The link's secret is made here, as the gateway makes it, and only its
 * hash stored; the link starts with PUBLIC_BASE_URL, where the console is served.
 */
export class UserCommands {
  private readonly createInvitation: CreateInvitation;

  constructor(uow: UnitOfWork, private readonly ctx: PresentationContext) {
    this.createInvitation = new CreateInvitation(uow, new UserRepository(), new InvitationRepository(), new AuditRepository(), ctx);
  }

  async invite(ref: string): Promise<MadeInvitation> {
    const secret = generateApiToken();
    const user = parseUserRef(ref, { mentions: true });
    try {
      const made = await this.createInvitation.execute({ actor: { label: 'cli' }, user, tokenHash: hashApiToken(secret) }, CLI_META);
      return { url: invitationUrl(this.ctx.baseUrl, secret), expires: made.expires, user: { id: made.user.id, name: made.user.name, email: made.user.email } };
    } catch (err) {
      if (err instanceof CommandFailure && err.error.reason === 'user_not_found') throw new Error(`no live user ${describeRef(user)}`);
      if (err instanceof CommandFailure && err.error.detail?.problem) throw new Error(`user ${describeRef(user)} ${String(err.error.detail.problem)}`);
      throw err;
    }
  }
}

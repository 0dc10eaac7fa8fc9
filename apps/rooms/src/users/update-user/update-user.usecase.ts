import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, ReplyOf, RequestOf, RoomAccessNarrowedV1, TokenRevokedV1, UpdateUserV1, UserUpdatedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { defaultMentionName, newVersion, PresentationContext, toUserObject, toUserView } from '../../shared/presentation';
import { hashPassword } from '../passwords';
import { SessionRepository } from '../session.repository';
import { UserRepository } from '../user.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { AuditRepository } from '../../audit/audit.repository';
import { userSubject } from '../../audit/audit-line';
import { WebhookAccessSteps } from '../../webhooks/lost-access/webhook-access-steps';
import { RoomRepository } from '../../rooms/room.repository';

/**
 * Changes the fields given, or (replace) sets them all; a deleted user cannot be updated.
 * A new password ends every session of the user, on every gateway before the answer.
 */
@Injectable()
export class UpdateUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    private readonly audit: AuditRepository,
    private readonly webhookSteps: WebhookAccessSteps,
    private readonly rooms: RoomRepository,
  ) {}

  async execute(cmd: RequestOf<typeof UpdateUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof UpdateUserV1>> {
    if (cmd.replace) {
      for (const field of ['name', 'email'] as const) {
        if (cmd[field] === undefined) throw commandFailure('invalid', 'rule', field, { problem: 'is required' });
      }
    }
    const passwordHash = cmd.password !== undefined ? await hashPassword(cmd.password) : undefined;
    return this.uow.apply(meta, async (tx) => {
      const { manager: m, emit } = tx;
      const user = await this.users.findByRef(m, cmd.user, { live: true, lock: true });
      const wasGroupAdmin = user.isGroupAdmin;
      if (cmd.replace) {
        user.name = cmd.name!;
        user.email = cmd.email!;
        user.mentionName = cmd.mentionName ?? await this.users.freeMentionName(m, defaultMentionName(cmd.name!), user.id);
        user.title = cmd.title ?? '';
        user.isGroupAdmin = cmd.isGroupAdmin ?? false;
        user.timezone = cmd.timezone ?? 'UTC';
      } else {
        if (cmd.name !== undefined) user.name = cmd.name;
        if (cmd.mentionName !== undefined) user.mentionName = cmd.mentionName;
        if (cmd.email !== undefined) user.email = cmd.email;
        if (cmd.title !== undefined) user.title = cmd.title;
        if (cmd.isGroupAdmin !== undefined) user.isGroupAdmin = cmd.isGroupAdmin;
        if (cmd.timezone !== undefined) user.timezone = cmd.timezone;
      }
      if (passwordHash !== undefined) {
        user.passwordHash = passwordHash;
        for (const tokenId of await this.sessions.revokeAllOf(m, user.id)) emit(TokenRevokedV1, { tokenId });
      }
      user.version = newVersion();
      await this.users.save(m, user, 'update');
      if (user.isGroupAdmin !== wasGroupAdmin) await this.audit.append(m, cmd.actor, { action: user.isGroupAdmin ? 'user.promoted' : 'user.demoted', target: userSubject(user) });
      if (wasGroupAdmin && !user.isGroupAdmin) {
        // Demoted: private rooms they are not a member of are closed to them from this commit.
        emit(RoomAccessNarrowedV1, { roomId: null, userId: user.id });
        await this.webhookSteps.disableOfLostAccess(tx, { userId: user.id });
        // As a group admin they could read every private room: the signed file links of all die.
        await this.rooms.revokeFileLinks(m, 'every-private-room');
      }
      emit(UserUpdatedV1, { user: toUserObject(user, this.ctx) });
      return { user: toUserView(user, this.ctx) };
    }, { replyAfterPublish: passwordHash !== undefined });
  }
}

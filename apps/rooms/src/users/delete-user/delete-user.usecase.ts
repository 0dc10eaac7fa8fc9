import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, DeleteUserV1, ReplyOf, RequestOf, RoomAccessNarrowedV1, RoomMemberExitedV2, TokenRevokedV1, UndeleteUserV1, UserDeletedV1, UserUndeletedV1,
} from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { ParticipantRepository } from '../../rooms/participants/participant.repository';
import { RoomRepository } from '../../rooms/room.repository';
import { newVersion, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { SessionRepository } from '../session.repository';
import { UserRepository } from '../user.repository';
import { InvitationRepository } from '../invitation.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { AuditRepository } from '../../audit/audit.repository';
import { userSubject } from '../../audit/audit-line';
import { WebhookAccessSteps } from '../../webhooks/lost-access/webhook-access-steps';

/**
 * Deleting keeps the user (messages still name them) and takes them out of every room they
 * are in (room_exit each, naming the user as they were, before user.deleted); undeleting
 * brings them back. Their sessions end for good; their personal tokens stop resolving
 * (and work again on undelete): every gateway is told to forget both before the answer.
 */
@Injectable()
export class DeleteUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly rooms: RoomRepository,
    private readonly participants: ParticipantRepository,
    private readonly sessions: SessionRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    private readonly audit: AuditRepository,
    private readonly webhookSteps: WebhookAccessSteps,
    private readonly invitations: InvitationRepository,
  ) {}

  execute(cmd: RequestOf<typeof DeleteUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof DeleteUserV1>> {
    return this.uow.apply(meta, async (tx) => {
      const { manager: m, emit } = tx;
      const user = await this.users.findByRef(m, cmd.user, { live: true, lock: true });
      const asWas = toUserObject(user, this.ctx);
      // The signed file links of the private rooms they could read die (read before their rooms are left).
      await this.rooms.revokeFileLinks(m, { readableBy: user.id });
      for (const roomId of await this.participants.exitEverywhere(m, user.id)) {
        // No room lock: the exit rows are ours now, so the room's deletion waits for this commit.
        const room = await this.rooms.findByRef(m, { id: roomId });
        emit(RoomMemberExitedV2, { room: toRoomObject(room, this.ctx), sender: asWas });
      }
      user.isDeleted = true;
      user.version = newVersion();
      await this.users.setDeleted(m, user, true);
      await this.invitations.removeOf(m, user.id);
      await this.audit.append(m, cmd.actor, { action: 'user.deleted', target: userSubject(user) });
      const forgotten = [...await this.sessions.revokeAllOf(m, user.id), ...await this.sessions.personalTokenIdsOf(m, user.id)];
      for (const tokenId of forgotten) emit(TokenRevokedV1, { tokenId });
      // Their live streams end (in order with the rooms' events), and their webhooks get nothing more.
      emit(RoomAccessNarrowedV1, { roomId: null, userId: user.id });
      await this.webhookSteps.disableOfLostAccess(tx, { userId: user.id });
      emit(UserDeletedV1, { user: toUserObject(user, this.ctx) });
      return {};
    }, { replyAfterPublish: true });
  }

  undelete(cmd: RequestOf<typeof UndeleteUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof UndeleteUserV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const user = await this.users.findByRef(m, cmd.user, { lock: true });
      if (!user.isDeleted) throw commandFailure('invalid', 'user_not_deleted', 'user', { id: user.id });
      user.isDeleted = false;
      user.version = newVersion();
      await this.users.setDeleted(m, user, false);
      emit(UserUndeletedV1, { user: toUserObject(user, this.ctx) });
      return {};
    });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { RemoveMemberV1, ReplyOf, RequestOf, RoomAccessNarrowedV1, RoomMemberExitedV2 } from '@app/contracts';
import { UnitOfWork } from '../../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../../shared/presentation';
import { UserRepository } from '../../../users/user.repository';
import { WebhookAccessSteps } from '../../../webhooks/lost-access/webhook-access-steps';
import { ParticipantRepository } from '../../participants/participant.repository';
import { RoomRepository } from '../../room.repository';
import { MemberRepository } from '../member.repository';
import { assertNotOwner, assertPrivate } from '../member-rules';
import { assertMayAdminister } from '../../room-access';
import { PRESENTATION } from '../../../shared/infrastructure.module';
import { AuditRepository } from '../../../audit/audit.repository';
import { roomSubject } from '../../../audit/audit-line';

/** A user who is no longer a member may not stay in the private room: they exit it (room_exit). */
@Injectable()
export class RemoveMember {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly members: MemberRepository,
    private readonly participants: ParticipantRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    private readonly audit: AuditRepository,
    private readonly webhookSteps: WebhookAccessSteps,
  ) {}

  execute(cmd: RequestOf<typeof RemoveMemberV1>, meta: CommandMeta): Promise<ReplyOf<typeof RemoveMemberV1>> {
    return this.uow.apply(meta, async (tx) => {
      const { manager: m, emit } = tx;
      const { room, standing } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'share');
      assertPrivate(room, cmd.room);
      assertMayAdminister(room, standing, 'manage the members of');
      const user = await this.users.findByRef(m, cmd.user, { live: true });
      assertNotOwner(room, user.id);
      await this.members.remove(m, room.id, user.id);
      await this.audit.append(m, cmd.actor, { action: 'room.member_removed', target: roomSubject(room), details: { user: { id: user.id, name: user.name } } });
      // Their open live streams of the room end (a participant or not).
      emit(RoomAccessNarrowedV1, { roomId: room.id, userId: user.id });
      // Their webhooks in it get nothing committed after this.
      await this.webhookSteps.disableOfLostAccess(tx, { roomId: room.id, userId: user.id });
      // And the signed file links handed out until now die: they may hold some (issue 34).
      await this.rooms.revokeFileLinks(m, { roomIds: [room.id] });
      if (await this.participants.exit(m, room.id, user.id)) {
        emit(RoomMemberExitedV2, { room: toRoomObject(room, this.ctx), sender: toUserObject(user, this.ctx) });
      }
      return {};
    });
  }
}

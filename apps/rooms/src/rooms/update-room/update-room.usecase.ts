import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  ReplyOf, RequestOf, RoomAccessNarrowedV1, RoomArchivedV2, RoomMemberAddedV1, RoomTopicChangedV2, RoomUnarchivedV2, UpdateRoomV1,
} from '@app/contracts';
import type { RoomEntity } from '../../database/entities';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../users/actors';
import { newVersion, PresentationContext, toRoomObject, toRoomView } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { WebhookAccessSteps } from '../../webhooks/lost-access/webhook-access-steps';
import { administrationOf, assertMayAdminister } from '../room-access';
import { RoomAttribute, RoomRepository } from '../room.repository';
import { roomChanges } from './room-changes';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { AuditRepository } from '../../audit/audit.repository';
import { roomChangeLines } from '../../audit/audit-line';

/**
 * HipChat's PUT room: the fields given replace the room's, the others stay. Any change
 * gives the room a new version (an unchanged PUT keeps it); archiving, unarchiving and a
 * new topic are announced with the room as it is after the whole update.
 */
@Injectable()
export class UpdateRoom {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly actors: Actors,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    private readonly audit: AuditRepository,
    private readonly webhookSteps: WebhookAccessSteps,
  ) {}

  execute(cmd: RequestOf<typeof UpdateRoomV1>, meta: CommandMeta): Promise<ReplyOf<typeof UpdateRoomV1>> {
    return this.uow.apply(meta, async (tx) => {
      const { manager: m, emit } = tx;
      const { room, standing } = await this.rooms.findWithStanding(m, cmd.room, cmd.actor, 'update');
      const owner = cmd.owner ? await this.users.findByRef(m, cmd.owner, { live: true, field: 'owner' }) : null;
      const changes = roomChanges(room, {
        name: cmd.name,
        privacy: cmd.privacy,
        topic: cmd.topic,
        isArchived: cmd.isArchived,
        ownerUserId: owner?.id,
        guestAccess: cmd.guestAccess,
      }, () => randomBytes(16).toString('hex'));
      // Judged on what changes: a PUT restating the room's fields with a new topic is anyone's who may use it.
      assertMayAdminister(room, standing, administrationOf(changes));
      if (Object.keys(changes).length === 0) return { room: toRoomView(room, await this.rooms.lastActive(m, room.id), this.ctx) };

      for (const line of roomChangeLines(room, changes, owner)) await this.audit.append(m, cmd.actor, line);
      const saved: Partial<Pick<RoomEntity, RoomAttribute>> = { ...changes, version: newVersion() };
      Object.assign(room, saved);
      await this.rooms.update(m, room.id, saved);
      // A private room's owner may always enter it.
      if (room.privacy === 'private' && (changes.ownerUserId !== undefined || changes.privacy !== undefined)) {
        await this.rooms.addMember(m, room.id, room.ownerUserId);
      }
      // A new owner's chats list the room from now on, and so does their live stream.
      if (changes.ownerUserId !== undefined) emit(RoomMemberAddedV1, { roomId: room.id, userId: room.ownerUserId });

      const roomObject = toRoomObject(room, this.ctx);
      const announced = changes.topic !== undefined || changes.isArchived !== undefined;
      const sender = announced ? await this.actors.sender(m, cmd.actor) : '';
      if (changes.topic !== undefined) emit(RoomTopicChangedV2, { room: roomObject, sender, topic: room.topic });
      if (changes.isArchived === true) emit(RoomArchivedV2, { room: roomObject, sender });
      if (changes.isArchived === false) emit(RoomUnarchivedV2, { room: roomObject, sender });
      // Open live streams of readers who are not members end.
      if (changes.privacy === 'private') {
        emit(RoomAccessNarrowedV1, { roomId: room.id, userId: null });
        // And webhooks of users who are not members get nothing committed after this.
        await this.webhookSteps.disableOfLostAccess(tx, { roomId: room.id });
        // Its files were served by URL alone: the signed links handed out while public die too.
        await this.rooms.revokeFileLinks(m, { roomIds: [room.id] });
      }
      return { room: toRoomView(room, await this.rooms.lastActive(m, room.id), this.ctx) };
    });
  }
}

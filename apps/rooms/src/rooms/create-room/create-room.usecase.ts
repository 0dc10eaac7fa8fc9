import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, CreateRoomV1, ReplyOf, RequestOf, RoomCreatedV2, RoomMemberAddedV1 } from '@app/contracts';
import { RoomEntity } from '../../database/entities';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../users/actors';
import { newVersion, PresentationContext, toRoomObject, toRoomView, toUserObject } from '../../shared/presentation';
import { UserRepository } from '../../users/user.repository';
import { assertNotConfined } from '../room-access';
import { RoomRepository } from '../room.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

@Injectable()
export class CreateRoom {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly actors: Actors,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof CreateRoomV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateRoomV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      assertNotConfined(cmd.actor, 'create rooms');
      // v2 may leave the owner out: the token's user then owns the room.
      const ownerRef = cmd.owner ?? (cmd.actor.userId !== undefined ? { id: cmd.actor.userId } : undefined);
      if (!ownerRef) throw commandFailure('invalid', 'rule', 'owner', { problem: 'is required (this token has no user to own the room)' });
      const owner = await this.users.findByRef(m, ownerRef, { live: true, field: 'owner' });
      const room = await this.rooms.insert(m, m.getRepository(RoomEntity).create({
        name: cmd.name,
        topic: cmd.topic,
        privacy: cmd.privacy,
        ownerUserId: owner.id,
        isArchived: false,
        guestAccessToken: cmd.guestAccess ? randomBytes(16).toString('hex') : null,
        version: newVersion(),
      }));
      if (room.privacy === 'private') await this.rooms.addMember(m, room.id, owner.id);
      // The user who created it: the token's user (v2), else the owner it was created for (v1).
      const creator = (await this.actors.user(m, cmd.actor)) ?? owner;
      emit(RoomCreatedV2, { room: toRoomObject(room, this.ctx), sender: toUserObject(creator, this.ctx) });
      // The owner's chats list it from now on: so does their live stream, without a reconnect.
      emit(RoomMemberAddedV1, { roomId: room.id, userId: owner.id });
      return { room: toRoomView(room, null, this.ctx) };
    });
  }
}

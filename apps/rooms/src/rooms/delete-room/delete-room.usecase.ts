import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { DeleteRoomV1, ReplyOf, RequestOf, RoomDeletedV1, RoomMemberExitedV1, WebhookRegistrationsChangedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../shared/actors';
import { PRESENTATION, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { ParticipantRepository } from '../participants/participant.repository';
import { RoomRepository } from '../room.repository';

/**
 * Removes the room and its messages; everyone in it exits first (room_exit each, then
 * room_deleted). The events carry the room's last state.
 */
@Injectable()
export class DeleteRoom {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly participants: ParticipantRepository,
    private readonly actors: Actors,
    private readonly webhooks: WebhookRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof DeleteRoomV1>, meta: CommandMeta): Promise<ReplyOf<typeof DeleteRoomV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const room = await this.rooms.findByRef(m, cmd.room, 'update');
      const sender = await this.actors.sender(m, cmd.actor);
      const roomObject = toRoomObject(room, this.ctx);
      for (const user of await this.participants.exitAll(m, room.id)) {
        emit(RoomMemberExitedV1, { room: roomObject, sender: toUserObject(user, this.ctx) });
      }
      // Deleted here rather than by the cascade: the dispatchers are told which ones went.
      const webhookIds = await this.webhooks.deleteOfRoom(m, room.id);
      await this.rooms.delete(m, room.id);
      emit(RoomDeletedV1, { room: roomObject, sender });
      // After room_deleted: the room's own room_deleted webhooks are still to be delivered.
      if (webhookIds.length > 0) emit(WebhookRegistrationsChangedV1, { roomId: room.id, webhookIds });
      return {};
    });
  }
}

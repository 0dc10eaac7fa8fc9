import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { ReplyOf, RequestOf, RoomTopicChangedV2, SetTopicV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { Actors } from '../../users/actors';
import { newVersion, PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { RoomRepository } from '../room.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

/** A new topic gives the room a new version; messages in flight to the room commit first. */
@Injectable()
export class SetTopic {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rooms: RoomRepository,
    private readonly actors: Actors,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof SetTopicV1>, meta: CommandMeta): Promise<ReplyOf<typeof SetTopicV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const room = await this.rooms.findForActor(m, cmd.room, cmd.actor, 'update');
      room.topic = cmd.topic;
      room.version = newVersion();
      await this.rooms.update(m, room.id, { topic: room.topic, version: room.version });
      // v2: the token's user; v1: the `from` label the client gave.
      const user = await this.actors.user(m, cmd.actor);
      const sender = user ? toUserObject(user, this.ctx) : cmd.from || cmd.actor.label || 'API';
      emit(RoomTopicChangedV2, { room: toRoomObject(room, this.ctx), sender, topic: cmd.topic });
      return {};
    });
  }
}

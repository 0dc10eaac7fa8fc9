import { Injectable } from '@nestjs/common';
import { commandFailure, GetMessageV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { Actors } from '../../users/actors';
import { toHistoryView } from '../get-history/get-history.usecase';
import { MessageRepository } from '../message.repository';
import { RoomRepository } from '../room.repository';

/** One message of a room, for readers allowed in the room (as its history). */
@Injectable()
export class GetMessage {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
  ) {}

  async execute(cmd: RequestOf<typeof GetMessageV1>): Promise<ReplyOf<typeof GetMessageV1>> {
    const m = this.db.manager;
    const { room } = await this.rooms.findForUse(m, cmd.room, cmd.actor, () => this.actors.user(m, cmd.actor));
    const row = await this.messages.findInRoom(m, room.id, cmd.messageId);
    if (!row) throw commandFailure('not_found', 'message_not_found', 'message', { ref: cmd.messageId });
    return { message: toHistoryView(row) };
  }
}

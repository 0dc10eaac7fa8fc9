import { Injectable } from '@nestjs/common';
import { CommandFailure, GetFileAccessV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomRepository } from '../room.repository';
import { mayReadFile } from './file-access';
import { RoomFileRepository } from './room-file.repository';

/** Whether a stored file is served, and to whom (see GetFileAccessV1 and mayReadFile). */
@Injectable()
export class GetFileAccess {
  constructor(
    private readonly db: DataSource,
    private readonly files: RoomFileRepository,
    private readonly rooms: RoomRepository,
  ) {}

  async execute(cmd: RequestOf<typeof GetFileAccessV1>): Promise<ReplyOf<typeof GetFileAccessV1>> {
    const m = this.db.manager;
    const shared = await this.files.roomOf(m, cmd.key);
    if (shared === null) return { found: false };
    const { roomId } = shared;
    try {
      // Without its room: a token of another room is refused by mayReadFile, not by a throw.
      const { room, standing } = cmd.actor
        ? await this.rooms.openForActor(m, { id: roomId }, { ...cmd.actor, roomId: undefined })
        : { room: await this.rooms.findByRef(m, { id: roomId }), standing: null };
      return {
        found: true, privacy: room.privacy, mayRead: mayReadFile(cmd.actor, room, standing),
        fileLinksRevokedAt: shared.fileLinksRevokedAt?.toISOString() ?? null,
      };
    } catch (err) {
      // The room went between the two reads.
      if (err instanceof CommandFailure && err.error.code === 'not_found') return { found: false };
      throw err;
    }
  }
}

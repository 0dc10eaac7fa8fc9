import { Injectable } from '@nestjs/common';
import { ListRemovedFilesV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomFileRepository } from './room-file.repository';

/** The files of deleted rooms still to be removed from the storage (the gateway's cleanup). */
@Injectable()
export class ListRemovedFiles {
  constructor(private readonly db: DataSource, private readonly files: RoomFileRepository) {}

  async execute(cmd: RequestOf<typeof ListRemovedFilesV1>): Promise<ReplyOf<typeof ListRemovedFilesV1>> {
    return { keys: await this.files.removedKeys(this.db.manager, cmd.limit) };
  }
}

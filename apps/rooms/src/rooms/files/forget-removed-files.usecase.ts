import { Injectable } from '@nestjs/common';
import { ForgetRemovedFilesV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomFileRepository } from './room-file.repository';

/**
 * The gateway removed these files from the storage: their records go. Housekeeping with
 * no event and no command log: applying it twice forgets nothing more.
 */
@Injectable()
export class ForgetRemovedFiles {
  constructor(private readonly db: DataSource, private readonly files: RoomFileRepository) {}

  async execute(cmd: RequestOf<typeof ForgetRemovedFilesV1>): Promise<ReplyOf<typeof ForgetRemovedFilesV1>> {
    return { forgotten: await this.files.forgetRemoved(this.db.manager, cmd.keys) };
  }
}

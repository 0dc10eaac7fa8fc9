import { Injectable } from '@nestjs/common';
import { ListAddonsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { AddonRepository } from '../addon.repository';

/** A page of installations, by id. */
@Injectable()
export class ListAddons {
  constructor(private readonly db: DataSource, private readonly addons: AddonRepository) {}

  async execute(cmd: RequestOf<typeof ListAddonsV1>): Promise<ReplyOf<typeof ListAddonsV1>> {
    return { installations: await this.addons.listViews(this.db.manager, cmd.startIndex, cmd.limit) };
  }
}

import { Injectable } from '@nestjs/common';
import { commandFailure, GetAddonV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { AddonRepository } from '../addon.repository';

@Injectable()
export class GetAddon {
  constructor(private readonly db: DataSource, private readonly addons: AddonRepository) {}

  async execute(cmd: RequestOf<typeof GetAddonV1>): Promise<ReplyOf<typeof GetAddonV1>> {
    const installation = await this.addons.findView(this.db.manager, cmd.id);
    if (!installation) throw commandFailure('not_found', 'addon_not_found', 'id', { ref: cmd.id });
    return { installation };
  }
}

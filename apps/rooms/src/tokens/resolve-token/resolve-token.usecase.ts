import { Injectable } from '@nestjs/common';
import { ReplyOf, RequestOf, ResolveTokenV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { TokenRepository } from '../token.repository';

/** The gateways' lookup of a token by its hash: the live token, or null. */
@Injectable()
export class ResolveToken {
  constructor(private readonly db: DataSource, private readonly tokens: TokenRepository) {}

  async execute(cmd: RequestOf<typeof ResolveTokenV1>): Promise<ReplyOf<typeof ResolveTokenV1>> {
    return { token: await this.tokens.findLive(this.db.manager, cmd.tokenHash) };
  }
}

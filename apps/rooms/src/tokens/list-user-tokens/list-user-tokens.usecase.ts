import { Injectable } from '@nestjs/common';
import { ListUserTokensV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { UserRepository } from '../../users/user.repository';
import { TokenRepository } from '../token.repository';

/** The tokens API's list: the caller's personal tokens, and v1 tokens for a group admin. */
@Injectable()
export class ListUserTokens {
  constructor(private readonly db: DataSource, private readonly users: UserRepository, private readonly tokens: TokenRepository) {}

  async execute(cmd: RequestOf<typeof ListUserTokensV1>): Promise<ReplyOf<typeof ListUserTokensV1>> {
    const m = this.db.manager;
    const user = await this.users.findByRef(m, { id: cmd.userId }, { live: true, field: 'actor' });
    return { tokens: await this.tokens.listVisible(m, user.id, user.isGroupAdmin) };
  }
}

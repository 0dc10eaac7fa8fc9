import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../../database/entities';
import { TokenRepository } from '../token.repository';

export interface ListTokensCommand {
  /** Revoked tokens too. */
  includeRevoked: boolean;
}

/** The tokens, by id (the CLI's `token list`). */
@Injectable()
export class ListTokens {
  constructor(private readonly db: DataSource, private readonly tokens: TokenRepository) {}

  execute(cmd: ListTokensCommand): Promise<ApiTokenEntity[]> {
    return this.tokens.list(this.db.manager, cmd.includeRevoked);
  }
}

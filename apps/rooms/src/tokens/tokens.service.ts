import { Injectable } from '@nestjs/common';
import { AuthenticatedToken, LIMITS, TOKEN_KINDS, TokenKind, TokenRevokedV1 } from '@app/contracts';
import { generateApiToken, hashApiToken } from '@app/common';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../database/entities';
import { UnitOfWork } from '../outbox/unit-of-work';

export interface CreatedToken { id: number; token: string; kind: TokenKind; label: string }

const CLI = { pattern: 'cli', commandId: '', deadline: 0, redelivered: false };

/** Tokens: looked up by hash for the gateways, made and revoked by the CLI. */
@Injectable()
export class TokensService {
  constructor(private readonly db: DataSource, private readonly uow: UnitOfWork) {}

  async resolve(tokenHash: string): Promise<AuthenticatedToken | null> {
    const row = await this.db.getRepository(ApiTokenEntity).createQueryBuilder('t')
      .where('t.token_hash = :tokenHash AND t.revoked_at IS NULL', { tokenHash }).getOne();
    return row ? { id: row.id, kind: row.kind, label: row.label ?? '' } : null;
  }

  /** Creates a token; the only time its clear text exists. */
  async create(kind: string, label = ''): Promise<CreatedToken> {
    if (!(TOKEN_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`--type must be one of ${TOKEN_KINDS.join(', ')} (got "${kind}")`);
    }
    if (label.length > LIMITS.tokenLabelMaxLength) {
      throw new Error(`--label must be at most ${LIMITS.tokenLabelMaxLength} characters`);
    }
    const token = generateApiToken();
    const inserted = await this.db.getRepository(ApiTokenEntity).insert({ tokenHash: hashApiToken(token), kind: kind as TokenKind, label });
    return { id: inserted.identifiers[0].id as number, token, kind: kind as TokenKind, label };
  }

  list(includeRevoked: boolean): Promise<ApiTokenEntity[]> {
    const qb = this.db.getRepository(ApiTokenEntity).createQueryBuilder('t').orderBy('t.id');
    if (!includeRevoked) qb.where('t.revoked_at IS NULL');
    return qb.getMany();
  }

  /**
   * Revokes by id (false when there is no such live token). `token.revoked.v1` is written
   * with it, so every gateway replica drops the token from its cache.
   */
  revoke(id: number): Promise<boolean> {
    return this.uow.apply(CLI, async ({ manager, emit }) => {
      const rows: Array<{ id: number }> = await manager.query(
        'UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
      const updated = (Array.isArray(rows[0]) ? rows[0] : rows).length > 0;
      if (updated) emit(TokenRevokedV1, { tokenId: id });
      return updated;
    }, { replyAfterPublish: true });
  }
}

import { Injectable } from '@nestjs/common';
import { AuthenticatedToken, TokenKind, V2_SCOPES, V2Scope } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { ApiTokenEntity } from '../database/entities';

interface TokenRow { id: number; kind: TokenKind; label: string | null; user_id: number | null; room_id: number | null; scopes: string[] | null }

export interface NewToken {
  tokenHash: string;
  kind: TokenKind;
  label: string;
  userId: number | null;
  roomId: number | null;
  scopes: string[];
}

/** SQL of API tokens (api_tokens) made by the CLI; add-on tokens are AddonRepository's. */
@Injectable()
export class TokenRepository {
  /**
   * A live token: not revoked, not expired, and its owner still there (a deleted user's
   * personal tokens stop working; a room token goes with its room).
   */
  async findLive(m: EntityManager, tokenHash: string): Promise<AuthenticatedToken | null> {
    const rows: TokenRow[] = await m.query(
      `SELECT t.id, t.kind, t.label, t.user_id, t.room_id, t.scopes FROM api_tokens t
         LEFT JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
          AND (t.user_id IS NULL OR NOT u.is_deleted)`, [tokenHash]);
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id, kind: row.kind, label: row.label ?? '', userId: row.user_id, roomId: row.room_id,
      scopes: (row.scopes ?? []).filter((s): s is V2Scope => (V2_SCOPES as readonly string[]).includes(s)),
    };
  }

  /** Stores a token by its hash (the clear text is never stored); answers its id. */
  async insert(m: EntityManager, t: NewToken): Promise<number> {
    const inserted: Array<{ id: number }> = await m.query(
      `INSERT INTO api_tokens (token_hash, kind, label, user_id, room_id, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [t.tokenHash, t.kind, t.label, t.userId, t.roomId, t.scopes]);
    return inserted[0].id;
  }

  /** Tokens by id; revoked ones too with `includeRevoked`. */
  list(m: EntityManager, includeRevoked: boolean): Promise<ApiTokenEntity[]> {
    const qb = m.getRepository(ApiTokenEntity).createQueryBuilder('t').orderBy('t.id');
    if (!includeRevoked) qb.where('t.revoked_at IS NULL');
    return qb.getMany();
  }

  /** True when a live token with this id was revoked now. */
  async revoke(m: EntityManager, id: number): Promise<boolean> {
    const rows: Array<{ id: number }> = await m.query(
      'UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
    return (Array.isArray(rows[0]) ? rows[0] : rows).length > 0;
  }
}

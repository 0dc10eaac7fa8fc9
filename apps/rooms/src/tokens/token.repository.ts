import { Injectable } from '@nestjs/common';
import { AuthenticatedToken, grantableScopes, TokenKind, TokenView, V2_SCOPES, V2Scope } from '@app/contracts';
import { preparedQuery } from '@app/common';
import { EntityManager } from 'typeorm';
import { ApiTokenEntity } from '../database/entities';

interface TokenRow {
  id: number; kind: TokenKind; label: string | null; user_id: number | null; room_id: number | null; scopes: string[] | null;
  expires_at: Date | null; is_group_admin: boolean | null;
}

interface ViewRow { id: number; kind: TokenKind; label: string | null; user_id: number | null; scopes: string[] | null; created_at: Date }

const knownScopes = (scopes: string[] | null): V2Scope[] => (scopes ?? []).filter((s): s is V2Scope => (V2_SCOPES as readonly string[]).includes(s));

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
    const rows: TokenRow[] = await preparedQuery(m,
      `SELECT t.id, t.kind, t.label, t.user_id, t.room_id, t.scopes, t.expires_at, u.is_group_admin FROM api_tokens t
         LEFT JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
          AND (t.user_id IS NULL OR NOT u.is_deleted)`, [tokenHash]);
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id, kind: row.kind, label: row.label ?? '', userId: row.user_id, roomId: row.room_id,
      scopes: scopesOf(row),
      ...(row.expires_at ? { expires: row.expires_at.toISOString() } : {}),
    };
  }

  /** Live personal tokens of the user, and (`withV1`) every live v1 token, by id. */
  async listVisible(m: EntityManager, userId: number, withV1: boolean): Promise<TokenView[]> {
    const rows: ViewRow[] = await m.query(
      `SELECT id, kind, label, user_id, scopes, created_at FROM api_tokens
        WHERE revoked_at IS NULL AND ((kind = 'personal' AND user_id = $1) OR ($2 AND kind IN ('admin', 'notification')))
        ORDER BY id`, [userId, withV1]);
    return rows.map(toTokenView);
  }

  /** The live token with this id, when the user may see it (see listVisible). */
  async findVisible(m: EntityManager, id: number, userId: number, withV1: boolean): Promise<TokenView | null> {
    const rows: ViewRow[] = await m.query(
      `SELECT id, kind, label, user_id, scopes, created_at FROM api_tokens
        WHERE id = $1 AND revoked_at IS NULL AND ((kind = 'personal' AND user_id = $2) OR ($3 AND kind IN ('admin', 'notification')))`,
      [id, userId, withV1]);
    return rows[0] ? toTokenView(rows[0]) : null;
  }

  async view(m: EntityManager, id: number): Promise<TokenView> {
    const rows: ViewRow[] = await m.query('SELECT id, kind, label, user_id, scopes, created_at FROM api_tokens WHERE id = $1', [id]);
    return toTokenView(rows[0]);
  }

  /** Stores a token by its hash (the clear text is never stored); answers its id. */
  async insert(m: EntityManager, t: NewToken): Promise<number> {
    const inserted: Array<{ id: number }> = await m.query(
      `INSERT INTO api_tokens (token_hash, kind, label, user_id, room_id, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [t.tokenHash, t.kind, t.label, t.userId, t.roomId, t.scopes]);
    return inserted[0].id;
  }

  /** Live tokens by id (neither revoked nor expired, as the gateway takes them); every one with `includeRevoked`. */
  list(m: EntityManager, includeRevoked: boolean): Promise<ApiTokenEntity[]> {
    const qb = m.getRepository(ApiTokenEntity).createQueryBuilder('t').orderBy('t.id');
    if (!includeRevoked) qb.where('t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())');
    return qb.getMany();
  }

  /** True when a live token with this id was revoked now. */
  async revoke(m: EntityManager, id: number): Promise<boolean> {
    const rows: Array<{ id: number }> = await m.query(
      'UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
    return (Array.isArray(rows[0]) ? rows[0] : rows).length > 0;
  }
}

function toTokenView(r: ViewRow): TokenView {
  return { id: r.id, label: r.label ?? '', kind: r.kind, scopes: knownScopes(r.scopes), created: r.created_at.toISOString(), userId: r.user_id };
}

/**
 * What a token may do, read at each lookup. A session acts with what a personal token of its
 * user may carry; a personal token with the scopes it was made with, but never more than its
 * user may grant: `admin_group` only while the user is a group admin. So a user made or
 * unmade group admin gets it, or loses it, on every credential at its next resolution (the
 * gateways resolve again on user.updated.v1), and is given it back on promotion.
 */
function scopesOf(row: Pick<TokenRow, 'kind' | 'scopes' | 'user_id' | 'is_group_admin'>): V2Scope[] {
  if (row.kind === 'session') return grantableScopes(row.is_group_admin === true);
  const stored = knownScopes(row.scopes);
  if (row.user_id === null) return stored;
  const allowed = grantableScopes(row.is_group_admin === true);
  return stored.filter((scope) => allowed.includes(scope));
}

import { Injectable } from '@nestjs/common';
import { AuthenticateReplyV1, AuthenticateRequestV1, LIMITS, TOKEN_KINDS, TokenKind } from '@app/contracts';
import { generateApiToken, hashApiToken } from '@app/common';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../database/entities';

/**
 * Looks the token up and counts the request in its fixed window, in one statement.
 * The window is aligned on multiples of `windowSeconds` of the database clock, so every
 * gateway replica (whatever its own clock) shares the same windows and counters.
 */
const AUTHENTICATE_SQL = `
WITH w AS (
  SELECT to_timestamp(floor(extract(epoch FROM now()) / $2) * $2) AS start
), t AS (
  SELECT id, kind, label FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL
), counted AS (
  INSERT INTO api_token_rate_windows AS r (token_id, window_start, request_count)
  SELECT t.id, w.start, 1 FROM t, w
  ON CONFLICT (token_id) DO UPDATE SET
    request_count = CASE WHEN r.window_start = EXCLUDED.window_start THEN r.request_count + 1 ELSE 1 END,
    window_start = EXCLUDED.window_start
  RETURNING request_count
)
SELECT t.id, t.kind, t.label, counted.request_count AS count,
       extract(epoch FROM (SELECT start FROM w))::bigint + $2 AS resets_at
FROM t, counted
UNION ALL
SELECT NULL, NULL, NULL, 0, extract(epoch FROM (SELECT start FROM w))::bigint + $2
WHERE NOT EXISTS (SELECT 1 FROM t)`;

export interface CreatedToken { id: number; token: string; kind: TokenKind; label: string }

@Injectable()
export class TokensService {
  constructor(private readonly db: DataSource) {}

  async authenticate(req: AuthenticateRequestV1): Promise<AuthenticateReplyV1> {
    const rows: Array<{ id: number | null; kind: TokenKind | null; label: string | null; count: number; resets_at: string }> =
      await this.db.query(AUTHENTICATE_SQL, [req.tokenHash, req.windowSeconds]);
    const row = rows[0];
    return {
      token: row.id !== null ? { id: row.id, kind: row.kind!, label: row.label ?? '' } : null,
      count: Number(row.count),
      windowResetsAt: Number(row.resets_at),
    };
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

  /** Revokes by id; returns false when there is no such live token. */
  async revoke(id: number): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
    return (result[0]?.length ?? result.length) > 0;
  }
}

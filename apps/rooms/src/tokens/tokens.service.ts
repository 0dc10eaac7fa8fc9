import { Injectable } from '@nestjs/common';
import {
  AuthenticatedToken, LIMITS, parseRoomRef, parseUserRef, TOKEN_KINDS, TokenKind, TokenRevokedV1, V2_SCOPES, V2Scope,
} from '@app/contracts';
import { generateApiToken, hashApiToken } from '@app/common';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../database/entities';
import { UnitOfWork } from '../outbox/unit-of-work';

export interface CreatedToken { id: number; token: string; kind: TokenKind; label: string }

/** What a v2 token belongs to: a personal token to a user (with scopes), a room token to a room. */
export interface TokenOwner {
  /** User id or e-mail address (personal tokens). */
  user?: string;
  /** Room id or name (room tokens). */
  room?: string;
  /** Personal tokens: the scopes granted (default: all of them). */
  scopes?: string[];
}

const CLI = { pattern: 'cli', commandId: '', deadline: 0, redelivered: false };

interface TokenRow { id: number; kind: TokenKind; label: string | null; user_id: number | null; room_id: number | null; scopes: string[] | null }

/** Tokens: looked up by hash for the gateways, made and revoked by the CLI. */
@Injectable()
export class TokensService {
  constructor(private readonly db: DataSource, private readonly uow: UnitOfWork) {}

  /**
   * A live token: not revoked, not expired, and its owner still there (a deleted user's
   * personal tokens stop working; a room token goes with its room).
   */
  async resolve(tokenHash: string): Promise<AuthenticatedToken | null> {
    const rows: TokenRow[] = await this.db.query(
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

  /** Creates a token; the only time its clear text exists. */
  async create(kind: string, label = '', owner: TokenOwner = {}): Promise<CreatedToken> {
    if (!(TOKEN_KINDS as readonly string[]).includes(kind) || kind === 'addon') {
      throw new Error(`--type must be one of ${TOKEN_KINDS.filter((k) => k !== 'addon').join(', ')} (got "${kind}"); add-on tokens come from the OAuth token URL`);
    }
    if (label.length > LIMITS.tokenLabelMaxLength) {
      throw new Error(`--label must be at most ${LIMITS.tokenLabelMaxLength} characters`);
    }
    const row: Partial<TokenRow> & { scopes: string[] } = { scopes: [] };
    if (kind === 'personal') {
      if (!owner.user) throw new Error('a personal token needs --user <id or e-mail address>');
      row.user_id = await this.userId(owner.user);
      const scopes = owner.scopes ?? [...V2_SCOPES];
      const unknown = scopes.filter((s) => !(V2_SCOPES as readonly string[]).includes(s));
      if (unknown.length > 0) throw new Error(`--scopes: unknown scope "${unknown[0]}"; the scopes are ${V2_SCOPES.join(', ')}`);
      if (scopes.length === 0) throw new Error('--scopes must name at least one scope');
      row.scopes = [...new Set(scopes)];
    } else if (kind === 'room') {
      if (!owner.room) throw new Error('a room token needs --room <id or name>');
      row.room_id = await this.roomId(owner.room);
      row.scopes = ['send_notification'];
    } else if (owner.user || owner.room || owner.scopes) {
      throw new Error(`--user, --room and --scopes are for v2 tokens (personal, room), not ${kind} tokens`);
    }
    const token = generateApiToken();
    const inserted: Array<{ id: number }> = await this.db.query(
      `INSERT INTO api_tokens (token_hash, kind, label, user_id, room_id, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [hashApiToken(token), kind, label, row.user_id ?? null, row.room_id ?? null, row.scopes]);
    return { id: inserted[0].id, token, kind: kind as TokenKind, label };
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

  private async userId(raw: string): Promise<number> {
    const ref = parseUserRef(raw);
    const rows: Array<{ id: number }> = 'id' in ref
      ? await this.db.query('SELECT id FROM users WHERE id = $1 AND NOT is_deleted', [ref.id])
      : await this.db.query('SELECT id FROM users WHERE lower(email) = lower($1) AND NOT is_deleted', [ref.email]);
    if (!rows[0]) throw new Error(`--user: no user ${raw}`);
    return rows[0].id;
  }

  private async roomId(raw: string): Promise<number> {
    const ref = parseRoomRef(raw);
    const rows: Array<{ id: number }> = 'id' in ref
      ? await this.db.query('SELECT id FROM rooms WHERE id = $1', [ref.id])
      : await this.db.query('SELECT id FROM rooms WHERE lower(name) = lower($1)', [ref.name]);
    if (!rows[0]) throw new Error(`--room: no room ${raw}`);
    return rows[0].id;
  }
}

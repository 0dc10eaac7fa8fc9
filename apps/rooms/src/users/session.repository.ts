import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export interface Credentials { userId: number; passwordHash: string }

/** SQL of sign-in sessions: api_tokens rows of kind `session`, owned by a user. */
@Injectable()
export class SessionRepository {
  /** The password hash of the live, non-guest user with this e-mail address (any case). */
  async credentialsOf(m: EntityManager, email: string): Promise<Credentials | null> {
    const rows: Array<{ id: number; password_hash: string }> = await m.query(
      `SELECT id, password_hash FROM users WHERE lower(email) = lower($1) AND NOT is_deleted AND NOT is_guest ORDER BY id DESC LIMIT 1`, [email]);
    return rows[0] ? { userId: rows[0].id, passwordHash: rows[0].password_hash } : null;
  }

  /** The user's password hash now, holding the row FOR SHARE (a password change or deletion waits); null when gone. */
  async lockCredentials(m: EntityManager, userId: number): Promise<string | null> {
    const rows: Array<{ password_hash: string }> = await m.query(
      'SELECT password_hash FROM users WHERE id = $1 AND NOT is_deleted AND NOT is_guest FOR SHARE', [userId]);
    return rows[0]?.password_hash ?? null;
  }

  async insert(m: EntityManager, s: { userId: number; tokenHash: string; ttlSeconds: number }): Promise<{ id: number; expires: Date }> {
    const rows: Array<{ id: number; expires_at: Date }> = await m.query(
      `INSERT INTO api_tokens (token_hash, kind, label, user_id, scopes, expires_at)
       VALUES ($1, 'session', 'console session', $2, '{}', now() + make_interval(secs => $3)) RETURNING id, expires_at`,
      [s.tokenHash, s.userId, s.ttlSeconds]);
    return { id: rows[0].id, expires: rows[0].expires_at };
  }

  /** Sessions of the user that ended more than a day ago: nothing will ask for them again. */
  async pruneEnded(m: EntityManager, userId: number): Promise<void> {
    await m.query(
      `DELETE FROM api_tokens WHERE user_id = $1 AND kind = 'session'
          AND (expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day')`, [userId]);
  }

  /** True when this live session was ended now. */
  async revoke(m: EntityManager, sessionId: number): Promise<boolean> {
    const rows: Array<{ id: number }> = await m.query(
      `UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND kind = 'session' AND revoked_at IS NULL RETURNING id`, [sessionId]);
    return (Array.isArray(rows[0]) ? rows[0] : rows).length > 0;
  }

  /** Ends every live session of the user; answers their ids. */
  async revokeAllOf(m: EntityManager, userId: number): Promise<number[]> {
    const result: unknown[] = await m.query(
      `UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND kind = 'session' AND revoked_at IS NULL RETURNING id`, [userId]);
    const rows = (Array.isArray(result[0]) ? result[0] : result) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /** Ids of the user's live personal tokens (they stop resolving with the user: the gateways must forget them). */
  async personalTokenIdsOf(m: EntityManager, userId: number): Promise<number[]> {
    const rows: Array<{ id: number }> = await m.query(
      `SELECT id FROM api_tokens WHERE user_id = $1 AND kind = 'personal' AND revoked_at IS NULL`, [userId]);
    return rows.map((r) => r.id);
  }
}

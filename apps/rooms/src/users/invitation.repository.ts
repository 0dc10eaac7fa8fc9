import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

const rowsOf = <T>(result: unknown): T[] => (Array.isArray((result as unknown[])[0]) ? (result as T[][])[0] : (result as T[]));

/** SQL of invitations (`user_invitations`): one per user, kept as the SHA-256 of the link's secret only. */
@Injectable()
export class InvitationRepository {
  /** The user's invitation, replacing the one before (its link stops working); answers when it expires. */
  async replace(m: EntityManager, userId: number, tokenHash: string, ttlSeconds: number): Promise<Date> {
    const rows: Array<{ expires_at: Date }> = await m.query(
      `INSERT INTO user_invitations (user_id, token_hash, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = now()
       RETURNING expires_at`,
      [userId, tokenHash, ttlSeconds]);
    return rows[0].expires_at;
  }

  /**
   * Takes the invitation with this hash away, used or not (an expired one is no use to anyone
   * either): answers its user while it was live, else null. The DELETE holds the row: two
   * acceptances of one link at once find it once.
   */
  async take(m: EntityManager, tokenHash: string): Promise<{ userId: number } | null> {
    const rows = rowsOf<{ user_id: number; live: boolean }>(await m.query(
      'DELETE FROM user_invitations WHERE token_hash = $1 RETURNING user_id, expires_at > now() AS live', [tokenHash]));
    return rows[0]?.live ? { userId: rows[0].user_id } : null;
  }

  /** A deleted user's invitation goes with them (an undelete does not bring the link back). */
  async removeOf(m: EntityManager, userId: number): Promise<void> {
    await m.query('DELETE FROM user_invitations WHERE user_id = $1', [userId]);
  }
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export interface PrivateMessageRow {
  id: string;
  fromUserId: number;
  fromName: string;
  fromMentionName: string;
  fromVersion: string;
  body: string;
  messageFormat: 'html' | 'text';
  createdAt: Date;
}

/** SQL of one-to-one messages (table private_messages). */
@Injectable()
export class PrivateMessageRepository {
  async insert(m: EntityManager, row: { id: string; fromUserId: number; toUserId: number; body: string; messageFormat: string; createdAt: Date }): Promise<void> {
    await m.query(
      'INSERT INTO private_messages (id, from_user_id, to_user_id, body, message_format, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [row.id, row.fromUserId, row.toUserId, row.body, row.messageFormat, row.createdAt],
    );
  }

  /** The newest `limit` messages between two users, either way, oldest first. */
  async latestBetween(m: EntityManager, a: number, b: number, limit: number): Promise<PrivateMessageRow[]> {
    // Two index ranges (to, from, created_at DESC), one per direction.
    const rows: Array<{
      id: string; from_user_id: number; name: string; mention_name: string; version: string; body: string;
      message_format: 'html' | 'text'; created_at: Date;
    }> = await m.query(
      `SELECT p.id, p.from_user_id, u.name, u.mention_name, u.version, p.body, p.message_format, p.created_at
         FROM private_messages p JOIN users u ON u.id = p.from_user_id
        WHERE (p.to_user_id = $1 AND p.from_user_id = $2) OR (p.to_user_id = $2 AND p.from_user_id = $1)
        ORDER BY p.created_at DESC, p.id DESC LIMIT $3`,
      [a, b, limit],
    );
    return rows.reverse().map((r) => ({
      id: r.id, fromUserId: r.from_user_id, fromName: r.name, fromMentionName: r.mention_name, fromVersion: r.version,
      body: r.body, messageFormat: r.message_format, createdAt: r.created_at,
    }));
  }
}

import { Injectable } from '@nestjs/common';
import { LIMITS } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { MessageEntity } from '../database/entities';

export interface HistoryRow extends MessageEntity {
  userName: string | null;
}

/** SQL of room messages. */
@Injectable()
export class MessageRepository {
  /** The row of a message by column, for a batched insert (Tx.insertLater). */
  row(message: MessageEntity): Record<string, unknown> {
    return {
      id: message.id, room_id: message.roomId, type: message.type, from_label: message.fromLabel, user_id: message.userId,
      body: message.body, message_format: message.messageFormat, color: message.color, notify: message.notify,
      mention_user_ids: message.mentionUserIds, created_at: message.createdAt.toISOString(),
    };
  }

  /** The newest `LIMITS.historyRecentCount` messages, oldest first. */
  async recent(m: EntityManager, roomId: number): Promise<HistoryRow[]> {
    const rows: Row[] = await m.query(
      `${SELECT} WHERE m.room_id = $1 ORDER BY m.created_at DESC, m.id DESC LIMIT $2`, [roomId, LIMITS.historyRecentCount]);
    return rows.map(toHistoryRow).reverse();
  }

  /** Messages in [start, end), oldest first. */
  async between(m: EntityManager, roomId: number, start: Date, end: Date): Promise<HistoryRow[]> {
    const rows: Row[] = await m.query(
      `${SELECT} WHERE m.room_id = $1 AND m.created_at >= $2 AND m.created_at < $3 ORDER BY m.created_at, m.id`, [roomId, start, end]);
    return rows.map(toHistoryRow);
  }
}

// Plain SQL: history answers up to 75 rows a request, and the query builder's entity
// mapping cost more than the query.
const SELECT = `SELECT m.id, m.room_id, m.type, m.from_label, m.user_id, m.body, m.message_format, m.color, m.notify,
  m.mention_user_ids, m.created_at, u.name AS user_name FROM messages m LEFT JOIN users u ON u.id = m.user_id`;

interface Row {
  id: string; room_id: number; type: MessageEntity['type']; from_label: string | null; user_id: number | null; body: string;
  message_format: 'html' | 'text'; color: string | null; notify: boolean; mention_user_ids: number[]; created_at: Date;
  user_name: string | null;
}

const toHistoryRow = (r: Row): HistoryRow => Object.assign(new MessageEntity(), {
  id: r.id, roomId: r.room_id, type: r.type, fromLabel: r.from_label, userId: r.user_id, body: r.body,
  messageFormat: r.message_format, color: r.color, notify: r.notify, mentionUserIds: r.mention_user_ids,
  createdAt: r.created_at, userName: r.user_name,
});

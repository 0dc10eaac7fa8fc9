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
    const rows = await this.withUserNames(m)
      .where('m.room_id = :roomId', { roomId })
      .orderBy('m.created_at', 'DESC').addOrderBy('m.id', 'DESC')
      .limit(LIMITS.historyRecentCount)
      .getRawAndEntities<{ user_name: string | null }>();
    return this.merge(rows).reverse();
  }

  /** Messages in [start, end), oldest first. */
  async between(m: EntityManager, roomId: number, start: Date, end: Date): Promise<HistoryRow[]> {
    const rows = await this.withUserNames(m)
      .where('m.room_id = :roomId AND m.created_at >= :start AND m.created_at < :end', { roomId, start, end })
      .orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC')
      .getRawAndEntities<{ user_name: string | null }>();
    return this.merge(rows);
  }

  private withUserNames(m: EntityManager) {
    return m.getRepository(MessageEntity).createQueryBuilder('m')
      .leftJoin('users', 'u', 'u.id = m.user_id')
      .addSelect('u.name', 'user_name');
  }

  private merge({ entities, raw }: { entities: MessageEntity[]; raw: Array<{ user_name: string | null; m_id?: string }> }): HistoryRow[] {
    return entities.map((e, i) => Object.assign(e, { userName: raw[i]?.user_name ?? null }));
  }
}

import { Injectable } from '@nestjs/common';
import type { RoomEventRecord } from '@app/contracts';
import { EntityManager } from 'typeorm';

export interface RoomEventWindow {
  /** The room's last published sequence (0: none). */
  lastSeq: number;
  /** The oldest sequence the log still holds (null: none). */
  oldestKept: number | null;
  events: RoomEventRecord[];
}

/** SQL of the log of published room events (`room_events`, written and pruned by the outbox relay). */
@Injectable()
export class RoomEventRepository {
  /**
   * A room's events after `after`, oldest first, at most `limit`, with its last sequence and
   * oldest kept one, in one statement (one snapshot: the page and the bounds agree).
   */
  async after(m: EntityManager, roomId: number, after: number, limit: number): Promise<RoomEventWindow> {
    const [row]: Array<{ last_seq: string; oldest: string | null; events: RoomEventRecord[] }> = await m.query(
      `SELECT coalesce((SELECT last_seq FROM room_sequences WHERE room_id = $1), 0) AS last_seq,
              (SELECT min(seq) FROM room_events WHERE room_id = $1) AS oldest,
              coalesce((SELECT json_agg(e ORDER BY e.seq) FROM (
                 SELECT seq, routing_key AS "routingKey", envelope FROM room_events
                  WHERE room_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) e), '[]') AS events`,
      [roomId, after, limit]);
    return { lastSeq: Number(row.last_seq), oldestKept: row.oldest === null ? null : Number(row.oldest), events: row.events };
  }

  /** The room's last published sequence (0: none). */
  async lastSeq(m: EntityManager, roomId: number): Promise<number> {
    const rows: Array<{ last_seq: string }> = await m.query('SELECT last_seq FROM room_sequences WHERE room_id = $1', [roomId]);
    return rows.length === 0 ? 0 : Number(rows[0].last_seq);
  }
}

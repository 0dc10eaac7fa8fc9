import { Injectable } from '@nestjs/common';
import { MessageUserView } from '@app/contracts';
import { preparedQuery } from '@app/common';
import { EntityManager } from 'typeorm';
import { MessageEntity } from '../database/entities';
import type { StagedEvent, StagedInsert } from '../outbox/outbox';
import type { StagedRows } from '../outbox/unit-of-work';

/** The parts of a message the v2 API added (migration 1764000000000), beside the entity's columns. */
export interface MessageExtras {
  card?: Record<string, unknown> | null;
  attachTo?: string | null;
  file?: StoredFile | null;
  messageLinks?: Array<{ type: string; url: string }> | null;
  /** The event that tells of the message (staged with it): its position places the message in history. */
  event?: StagedEvent;
}

export interface StoredFile {
  name: string;
  size: number;
  url: string;
  thumb_url?: string;
}

export type StoredMessage = MessageEntity & MessageExtras;

export interface HistoryRow extends StoredMessage {
  userName: string | null;
  /** Read by the v2 queries only (a User object needs them). */
  userMentionName?: string | null;
  userVersion?: string | null;
  mentions?: MessageUserView[];
}

/** Bounds of a page of history, newest first. */
export interface HistoryWindow {
  since?: Date;
  before?: Date;
  offset: number;
  limit: number | null;
  details: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A message's row by column, as the messages table names them (jsonb_populate_record), and
 * the id of the event that tells of it: its `position` is that event's outbox id, taken in
 * the statement that writes both (see withEvents).
 */
const toRow = (message: StoredMessage): Record<string, unknown> => ({
  event_id: eventOf(message),
  id: message.id, room_id: message.roomId, type: message.type, from_label: message.fromLabel, user_id: message.userId,
  body: message.body, message_format: message.messageFormat, color: message.color, notify: message.notify,
  mention_user_ids: message.mentionUserIds, created_at: message.createdAt.toISOString(),
  card: message.card ?? null, attach_to: message.attachTo ?? null, file: message.file ?? null,
  message_links: message.messageLinks ?? null,
});

function eventOf(message: StoredMessage): string {
  // RoomPost.announce links them.
  if (!message.event) throw new Error(`message ${message.id} is stored without the event that tells of it`);
  return message.event.envelope.id;
}

/** SQL of room messages. */
@Injectable()
export class MessageRepository implements StagedRows<StoredMessage> {
  /**
   * Messages staged with Tx.insertLater, written at the commit in the outbox's statement
   * (one statement and one round trip for a whole batch's events and messages, the hot
   * path): each takes its event's outbox id as its position, every column named by its SQL
   * name in a JSON row.
   */
  withEvents(messages: StoredMessage[], events: string, param: number): StagedInsert {
    return {
      sql: `INSERT INTO messages
            SELECT p.* FROM jsonb_array_elements($${param}::jsonb) r
              JOIN ${events} ON ${events}.event_id = (r->>'event_id')::uuid,
              LATERAL jsonb_populate_record(NULL::messages, r || jsonb_build_object('position', ${events}.id)) p`,
      value: JSON.stringify(messages.map(toRow)),
      count: messages.length,
    };
  }

  /**
   * Messages within [since, before), newest first, `offset` skipped and at most `limit`
   * (null: all). With details: senders' mention names, mentions, links and cards (v2).
   *
   * Order: by position, the order the room's events were published in (see OutboxRelay),
   * when the window is open-ended (recent history, `since` only); by date when it has an end
   * (`before`: a window in time, as the client asked for), position breaking ties. Two
   * messages sent at once may carry dates a few milliseconds out of position order; a window
   * with an end is then read in the order of the time index, which finds its end in one probe
   * however much is newer (in position order every newer message was read and dropped).
   *
   * The page is cut first, from the index alone where it can be (positions, or dates and
   * positions), then joined to its rows, senders and mentions: a deep offset costs index
   * entries, not a join and a subquery per skipped row. Each combination of bounds is a
   * statement of its own, so that a prepared plan keeps its index conditions.
   */
  async page(m: EntityManager, roomId: number, w: HistoryWindow): Promise<HistoryRow[]> {
    const params: unknown[] = [roomId];
    const where = ['room_id = $1'];
    if (w.since) where.push(`created_at >= $${params.push(w.since)}::timestamptz`);
    if (w.before) where.push(`created_at < $${params.push(w.before)}::timestamptz`);
    const order = (t: string) => (w.before ? `${t}created_at DESC, ${t}position DESC` : `${t}position DESC`);
    const offset = params.push(w.offset);
    const limit = params.push(w.limit);
    const rows: Row[] = await preparedQuery(m,
      `WITH page AS MATERIALIZED (
         SELECT position${w.before ? ', created_at' : ''} FROM messages WHERE ${where.join(' AND ')}
          ORDER BY ${order('')} OFFSET $${offset} LIMIT $${limit})
       ${w.details ? SELECT_FULL : SELECT} JOIN page p ON p.position = m.position
        WHERE m.room_id = $1
        ORDER BY ${order('m.')}`,
      params);
    return rows.map(toHistoryRow);
  }

  /** One message of a room, with its sender and mentions; null when the room has no such message. */
  async findInRoom(m: EntityManager, roomId: number, id: string): Promise<HistoryRow | null> {
    if (!UUID.test(id)) return null;
    const rows: Row[] = await preparedQuery(m, `${SELECT_FULL} WHERE m.room_id = $1 AND m.id = $2`, [roomId, id]);
    return rows[0] ? toHistoryRow(rows[0]) : null;
  }

  /**
   * How many messages were posted to the room (every row: users' messages, files and
   * notifications) and when the newest was, in one statement so that the two agree. The
   * newest is RoomRepository.detail's last_active, read the same way. Both columns are in
   * messages_room_time_idx: an index-only scan over the room's entries, once a vacuum has
   * marked their pages all-visible (a rarely called read; no counter for every send to update).
   */
  async statistics(m: EntityManager, roomId: number): Promise<{ sent: number; lastActive: Date | null }> {
    const rows: Array<{ sent: string; last_active: Date | null }> = await preparedQuery(m,
      'SELECT count(*) AS sent, max(created_at) AS last_active FROM messages WHERE room_id = $1', [roomId]);
    // count(*) is a bigint, which the driver answers as a string.
    return { sent: Number(rows[0].sent), lastActive: rows[0].last_active ?? null };
  }

  /**
   * Messages that share a file, with the file as stored, in id order after `afterId` (null:
   * from the first), at most `limit`: the pages of `cli file restore-names`. Each page
   * continues the primary key's walk where the last ended, so a run reads the table once.
   */
  async sharedFilesAfter(m: EntityManager, afterId: string | null, limit: number): Promise<Array<{ id: string; file: StoredFile }>> {
    return preparedQuery(m,
      'SELECT id, file FROM messages WHERE file IS NOT NULL AND id > $1 ORDER BY id LIMIT $2',
      [afterId ?? '00000000-0000-0000-0000-000000000000', limit]);
  }

  /** When a message of the room was sent; null when the room has no such message. */
  async sentAt(m: EntityManager, roomId: number, id: string): Promise<Date | null> {
    if (!UUID.test(id)) return null;
    const rows: Array<{ created_at: Date }> = await preparedQuery(m, 'SELECT created_at FROM messages WHERE room_id = $1 AND id = $2', [roomId, id]);
    return rows[0]?.created_at ?? null;
  }
}

// Plain SQL: history answers up to 75 rows a request, and the query builder's entity
// mapping cost more than the query.
const SELECT = `SELECT m.id, m.room_id, m.type, m.from_label, m.user_id, m.body, m.message_format, m.color, m.notify,
  m.mention_user_ids, m.created_at, m.file, u.name AS user_name FROM messages m LEFT JOIN users u ON u.id = m.user_id`;

// v2 items name their sender and mentions as User objects: one subquery per row, on the
// primary key, rather than a second round trip.
const SELECT_FULL = `SELECT m.id, m.room_id, m.type, m.from_label, m.user_id, m.body, m.message_format, m.color, m.notify,
  m.mention_user_ids, m.created_at, m.file, m.card, m.attach_to, m.message_links,
  u.name AS user_name, u.mention_name AS user_mention_name, u.version AS user_version,
  (SELECT coalesce(json_agg(json_build_object('id', mu.id, 'name', mu.name, 'mentionName', mu.mention_name, 'version', mu.version)
     ORDER BY mu.id), '[]'::json) FROM users mu WHERE mu.id = ANY (m.mention_user_ids)) AS mentions
  FROM messages m LEFT JOIN users u ON u.id = m.user_id`;

interface Row {
  id: string; room_id: number; type: MessageEntity['type']; from_label: string | null; user_id: number | null; body: string;
  message_format: 'html' | 'text'; color: string | null; notify: boolean; mention_user_ids: number[]; created_at: Date;
  file: StoredFile | null; card?: Record<string, unknown> | null; attach_to?: string | null;
  message_links?: Array<{ type: string; url: string }> | null;
  user_name: string | null; user_mention_name?: string | null; user_version?: string | null; mentions?: MessageUserView[];
}

const toHistoryRow = (r: Row): HistoryRow => Object.assign(new MessageEntity(), {
  id: r.id, roomId: r.room_id, type: r.type, fromLabel: r.from_label, userId: r.user_id, body: r.body,
  messageFormat: r.message_format, color: r.color, notify: r.notify, mentionUserIds: r.mention_user_ids,
  createdAt: r.created_at, userName: r.user_name, file: r.file,
  ...('card' in r ? {
    card: r.card ?? null, attachTo: r.attach_to ?? null, messageLinks: r.message_links ?? null,
    userMentionName: r.user_mention_name ?? null, userVersion: r.user_version ?? null, mentions: r.mentions ?? [],
  } : {}),
});

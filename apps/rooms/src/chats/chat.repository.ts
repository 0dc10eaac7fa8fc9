import { Injectable } from '@nestjs/common';
import { UNREAD_CAP } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { passesPrivateRoomRuleSql } from '../rooms/room-access.sql';
import { MENTION_ALL_PATTERN } from './chat-rules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A message a read marker may point at: its id and when it was sent. */
export interface ReadPoint { id: string; createdAt: Date }

interface ChatStateRow { unread: number; mentioned: boolean; last_id: string | null; last_at: Date | null }
export interface ChatRoomRow extends ChatStateRow { id: number; name: string; privacy: 'public' | 'private' }
export interface ChatUserRow extends ChatStateRow { id: number; name: string; mention_name: string }

/**
 * The messages that count as unread, as a subquery's FROM: at most UNREAD_CAP of them, the
 * newest, so that a chat costs the same however much was missed (one index range each).
 */
const CAPPED = `LIMIT ${UNREAD_CAP}`;

/**
 * SQL of read markers (room_read_markers, private_read_markers) and of the chats list that
 * counts what is unread from them.
 */
@Injectable()
export class ChatRepository {
  /** A message of the room (null: unknown, or of another room). */
  async roomMessage(m: EntityManager, roomId: number, id: string): Promise<ReadPoint | null> {
    if (!UUID.test(id)) return null;
    const rows: Array<{ created_at: Date }> = await m.query('SELECT created_at FROM messages WHERE id = $1 AND room_id = $2', [id, roomId]);
    return rows[0] ? { id, createdAt: rows[0].created_at } : null;
  }

  /** A private message between the two users, either way (null: none). */
  async privateMessage(m: EntityManager, a: number, b: number, id: string): Promise<ReadPoint | null> {
    if (!UUID.test(id)) return null;
    const rows: Array<{ created_at: Date }> = await m.query(
      `SELECT created_at FROM private_messages
        WHERE id = $1 AND ((from_user_id = $2 AND to_user_id = $3) OR (from_user_id = $3 AND to_user_id = $2))`, [id, a, b]);
    return rows[0] ? { id, createdAt: rows[0].created_at } : null;
  }

  /** Moves the user's marker in the room forward to `to` (never back: the WHERE keeps the newer under concurrent PUTs). */
  async markRoom(m: EntityManager, userId: number, roomId: number, to: ReadPoint): Promise<void> {
    await m.query(
      `INSERT INTO room_read_markers (user_id, room_id, message_id, message_created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, room_id) DO UPDATE SET message_id = EXCLUDED.message_id, message_created_at = EXCLUDED.message_created_at
        WHERE room_read_markers.message_created_at < EXCLUDED.message_created_at`,
      [userId, roomId, to.id, to.createdAt]);
  }

  /** As markRoom, for the user's private chat with `otherUserId`. */
  async markPrivateChat(m: EntityManager, userId: number, otherUserId: number, to: ReadPoint): Promise<void> {
    await m.query(
      `INSERT INTO private_read_markers (user_id, other_user_id, message_id, message_created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, other_user_id) DO UPDATE SET message_id = EXCLUDED.message_id, message_created_at = EXCLUDED.message_created_at
        WHERE private_read_markers.message_created_at < EXCLUDED.message_created_at`,
      [userId, otherUserId, to.id, to.createdAt]);
  }

  /**
   * The user's rooms: those they are a member of, own or have opened (a read marker), that
   * they may see (the private-room rule's one SQL form) and that are not archived, by name.
   * Unread: messages and notifications after the marker not sent by the user; with no
   * marker, since their membership began (none when that is not known). Mentioned: one of
   * those names the user, or says @all (MENTION_ALL_PATTERN).
   */
  async rooms(m: EntityManager, userId: number): Promise<ChatRoomRow[]> {
    return m.query(
      `WITH theirs AS (
         SELECT room_id FROM room_members WHERE user_id = $1
         UNION SELECT id FROM rooms WHERE owner_user_id = $1
         UNION SELECT room_id FROM room_read_markers WHERE user_id = $1)
       SELECT r.id, r.name, r.privacy, n.unread, n.mentioned, last.id AS last_id, last.created_at AS last_at
         FROM theirs JOIN rooms r ON r.id = theirs.room_id
         LEFT JOIN room_read_markers mk ON mk.user_id = $1 AND mk.room_id = r.id
         LEFT JOIN room_members rm ON rm.room_id = r.id AND rm.user_id = $1
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS unread, coalesce(bool_or($1 = ANY (x.mention_user_ids) OR x.body ~* $2), false) AS mentioned
             FROM (SELECT mention_user_ids, body FROM messages
                    WHERE room_id = r.id AND created_at > coalesce(mk.message_created_at, rm.added_at, 'infinity')
                      AND type IN ('message', 'notification') AND user_id IS DISTINCT FROM $1
                    ORDER BY created_at DESC ${CAPPED}) x) n
         LEFT JOIN LATERAL (
           SELECT id, created_at FROM messages WHERE room_id = r.id AND type IN ('message', 'notification')
            ORDER BY created_at DESC LIMIT 1) last ON true
        WHERE NOT r.is_archived AND ${passesPrivateRoomRuleSql('r', '$1')}
        ORDER BY lower(r.name), r.id`,
      [userId, MENTION_ALL_PATTERN]);
  }

  /**
   * The users the user exchanged private messages with (not deleted), newest conversation
   * first. Their ids are read by skipping through the two indexes (one step per peer, not
   * per message); unread: their messages after the marker (all of them, with none);
   * mentioned: one of those names the user (`mention`: privateMentionPattern).
   */
  async privateChats(m: EntityManager, userId: number, mention: string): Promise<ChatUserRow[]> {
    return m.query(
      `WITH RECURSIVE
         got AS (
           (SELECT from_user_id AS peer FROM private_messages WHERE to_user_id = $1 ORDER BY from_user_id LIMIT 1)
           UNION ALL
           SELECT (SELECT p.from_user_id FROM private_messages p WHERE p.to_user_id = $1 AND p.from_user_id > got.peer
                    ORDER BY p.from_user_id LIMIT 1)
             FROM got WHERE got.peer IS NOT NULL),
         sent AS (
           (SELECT to_user_id AS peer FROM private_messages WHERE from_user_id = $1 ORDER BY to_user_id LIMIT 1)
           UNION ALL
           SELECT (SELECT p.to_user_id FROM private_messages p WHERE p.from_user_id = $1 AND p.to_user_id > sent.peer
                    ORDER BY p.to_user_id LIMIT 1)
             FROM sent WHERE sent.peer IS NOT NULL),
         peers AS (SELECT peer FROM got WHERE peer IS NOT NULL UNION SELECT peer FROM sent WHERE peer IS NOT NULL)
       SELECT u.id, u.name, u.mention_name, n.unread, n.mentioned, last.id AS last_id, last.created_at AS last_at
         FROM peers JOIN users u ON u.id = peers.peer AND NOT u.is_deleted
         LEFT JOIN private_read_markers mk ON mk.user_id = $1 AND mk.other_user_id = u.id
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS unread, coalesce(bool_or(x.body ~* $2), false) AS mentioned
             FROM (SELECT body FROM private_messages
                    WHERE to_user_id = $1 AND from_user_id = u.id AND from_user_id <> $1
                      AND created_at > coalesce(mk.message_created_at, '-infinity')
                    ORDER BY created_at DESC ${CAPPED}) x) n
         CROSS JOIN LATERAL (
           SELECT b.id, b.created_at FROM (
             (SELECT id, created_at FROM private_messages WHERE to_user_id = $1 AND from_user_id = u.id ORDER BY created_at DESC LIMIT 1)
             UNION ALL
             (SELECT id, created_at FROM private_messages WHERE from_user_id = $1 AND to_user_id = u.id ORDER BY created_at DESC LIMIT 1)) b
            ORDER BY b.created_at DESC LIMIT 1) last
        ORDER BY last.created_at DESC, u.id`,
      [userId, mention]);
  }
}

import type { HistoryMessageView, RoomDetailView, RoomView, UserView } from '@app/contracts';
import { DateTime } from 'luxon';
import type { V1HistoryMessage, V1Room, V1RoomDetail, V1User } from './records';

/**
 * The v1 records, shaped from the rooms service's API-neutral views. Key order is part of
 * the answer (clients compare bodies byte for byte), so each record is built in the order
 * of the compatibility reference.
 */

/** UNIX seconds of an ISO date; 0 for none (v1's "never"). */
export function unixSeconds(iso: string | null | undefined): number {
  if (!iso) return 0;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

export function toV1Room(room: RoomView): V1Room {
  return {
    room_id: room.id,
    name: room.name,
    topic: room.topic,
    last_active: unixSeconds(room.lastActive),
    created: unixSeconds(room.created),
    owner_user_id: room.ownerUserId,
    is_archived: room.isArchived,
    is_private: room.privacy === 'private',
    xmpp_jid: room.xmppJid,
    guest_access_url: room.guestAccessUrl,
  };
}

export function toV1RoomDetail(room: RoomDetailView): V1RoomDetail {
  return {
    ...toV1Room(room),
    member_user_ids: [...room.memberUserIds],
    participants: room.participants.map((p) => ({ user_id: p.userId, name: p.name })),
  };
}

/** `is_deleted` only where v1 lists it: `users/list`. */
export function toV1User(user: UserView, withDeletedFlag = false): V1User {
  const record: V1User = {
    user_id: user.id,
    name: user.name,
    mention_name: user.mentionName,
    email: user.email,
    title: user.title,
    photo_url: user.photoUrl,
    last_active: unixSeconds(user.lastActive),
    created: unixSeconds(user.created),
    status: user.status,
    status_message: user.statusMessage,
    is_group_admin: user.isGroupAdmin ? 1 : 0,
    timezone: user.timezone,
  };
  if (withDeletedFlag) record.is_deleted = user.isDeleted ? 1 : 0;
  return record;
}

const UTC_ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

/**
 * `2010-11-19T15:48:19-0800`: ISO-8601 in the requested zone, offset without a colon. In UTC
 * (the default zone) it is the date as the rooms service wrote it, cut: luxon's parse and
 * format cost a tenth of the gateway's time on a history of 75 messages.
 */
export function formatHistoryDate(iso: string, zone: string): string {
  const utc = zone === 'UTC' ? UTC_ISO.exec(iso) : null;
  if (utc) return `${utc[1]}+0000`;
  return DateTime.fromISO(iso, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
}

/** Messages sent through the API (no user behind them) have `user_id` "api". */
export function toV1HistoryMessage(message: HistoryMessageView, zone: string): V1HistoryMessage {
  const record: V1HistoryMessage = {
    date: formatHistoryDate(message.date, zone),
    from: { name: message.from.name, user_id: message.from.userId ?? 'api' },
    message: message.message,
  };
  if (message.file) record.file = { name: message.file.name, size: message.file.size, url: message.file.url };
  return record;
}

import type { RoomDetailView, RoomStatisticsView, RoomUserView, RoomView } from '@app/contracts';
import { toV2UserItem } from '../users/users.presenter';

/** v2 shapes of the rooms service's room views; `base` is the public base URL without a trailing slash. */

export const roomUrl = (base: string, id: number) => `${base}/v2/room/${id}`;

/** Where a room's statistics are: the room record links them, by id whatever the request named. */
export const roomStatisticsUrl = (base: string, id: number) => `${roomUrl(base, id)}/statistics`;

/** As the webhook Room object links them: `members` for private rooms only. */
export function roomLinks(room: Pick<RoomView, 'id' | 'privacy'>, base: string) {
  const self = roomUrl(base, room.id);
  return {
    self,
    webhooks: `${self}/webhook`,
    participants: `${self}/participant`,
    ...(room.privacy === 'private' ? { members: `${self}/member` } : {}),
  };
}

const userItem = (u: RoomUserView, base: string) =>
  toV2UserItem({ id: u.userId, name: u.name, mentionName: u.mentionName, version: u.version }, base);

/** 201 of POST /v2/room. */
export function toV2CreatedRoom(room: RoomView, base: string) {
  return { id: room.id, links: { self: roomUrl(base, room.id) } };
}

/** An item of GET /v2/room. */
export function toV2RoomItem(room: RoomView, base: string) {
  return {
    id: room.id,
    name: room.name,
    privacy: room.privacy,
    is_archived: room.isArchived,
    version: room.version,
    links: roomLinks(room, base),
  };
}

/** An item of GET /v2/room?expand=items: the item and what the room view has besides. */
export function toV2ExpandedRoomItem(room: RoomView, base: string) {
  return { ...toV2RoomItem(room, base), topic: room.topic, created: room.created, last_active: room.lastActive };
}

/** GET /v2/room/{room}: the full room. */
export function toV2Room(room: RoomDetailView, base: string) {
  return {
    id: room.id,
    name: room.name,
    topic: room.topic,
    privacy: room.privacy,
    is_archived: room.isArchived,
    is_guest_accessible: room.guestAccessUrl !== null,
    guest_access_url: room.guestAccessUrl,
    created: room.created,
    last_active: room.lastActive,
    owner: room.owner ? userItem(room.owner, base) : null,
    participants: room.participants.map((p) => userItem(p, base)),
    statistics: { links: { self: roomStatisticsUrl(base, room.id) } },
    xmpp_jid: room.xmppJid,
    version: room.version,
    delegate_admin_visibility: null,
    avatar_url: null,
    links: roomLinks(room, base),
  };
}

/** GET /v2/room/{room}/statistics. */
export function toV2RoomStatistics(stats: RoomStatisticsView, base: string) {
  return {
    messages_sent: stats.messagesSent,
    last_active: stats.lastActive,
    links: { self: roomStatisticsUrl(base, stats.roomId) },
  };
}

import { v2Links, type RoomDetailView, type RoomStatisticsView, type RoomUserView, type RoomView } from '@app/contracts';
import { toV2UserItem } from '../users/users.presenter';

/** v2 shapes of the rooms service's room views; `base` is the public base URL without a trailing slash. */


const userItem = (u: RoomUserView, base: string) =>
  toV2UserItem({ id: u.userId, name: u.name, mentionName: u.mentionName, version: u.version }, base);

/** 201 of POST /v2/room. */
export function toV2CreatedRoom(room: RoomView, base: string) {
  return { id: room.id, links: { self: v2Links(base).room(room.id) } };
}

/** An item of GET /v2/room. */
export function toV2RoomItem(room: RoomView, base: string) {
  return {
    id: room.id,
    name: room.name,
    privacy: room.privacy,
    is_archived: room.isArchived,
    version: room.version,
    links: v2Links(base).roomLinks(room),
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
    // The room record links its statistics by id, whatever the request named.
    statistics: { links: { self: v2Links(base).roomStatistics(room.id) } },
    xmpp_jid: room.xmppJid,
    version: room.version,
    delegate_admin_visibility: null,
    avatar_url: null,
    links: v2Links(base).roomLinks(room),
  };
}

/** GET /v2/room/{room}/statistics. */
export function toV2RoomStatistics(stats: RoomStatisticsView, base: string) {
  return {
    messages_sent: stats.messagesSent,
    last_active: stats.lastActive,
    links: { self: v2Links(base).roomStatistics(stats.roomId) },
  };
}

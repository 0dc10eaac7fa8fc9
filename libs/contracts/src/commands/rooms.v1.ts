import { MessageFormat, NotificationColor, V1HistoryMessage, V1Room, V1RoomDetail } from '../models';

/** Request/reply commands served by the rooms service. The version is part of the pattern. */
export const RoomsCommandV1 = {
  create: 'rooms.create.v1',
  delete: 'rooms.delete.v1',
  history: 'rooms.history.v1',
  list: 'rooms.list.v1',
  sendNotification: 'rooms.send-notification.v1',
  show: 'rooms.show.v1',
  setTopic: 'rooms.set-topic.v1',
} as const;

/** Who asked for a change: recorded as the event's sender. */
export interface Actor {
  /** API token id, when the change came through a token. */
  tokenId?: number;
  /** Label used as `sender` when the change has no user behind it. */
  label: string;
}

export interface CreateRoomRequestV1 {
  actor: Actor;
  name: string;
  ownerUserId: number;
  privacy: 'public' | 'private';
  topic: string;
  guestAccess: boolean;
}
export interface CreateRoomReplyV1 { room: V1Room }

export interface RoomRefRequestV1 {
  /** Room ID or room name. */
  roomIdOrName: string;
}

export interface DeleteRoomRequestV1 extends RoomRefRequestV1 { actor: Actor }
export interface DeleteRoomReplyV1 { deleted: true }

export interface HistoryRequestV1 extends RoomRefRequestV1 {
  /** `recent` or an ISO calendar date (YYYY-MM-DD) in `timezone`. */
  date: 'recent' | string;
  /** IANA timezone name, already validated. */
  timezone: string;
}
export interface HistoryReplyV1 { messages: V1HistoryMessage[] }

export type ListRoomsRequestV1 = Record<string, never>;
export interface ListRoomsReplyV1 { rooms: V1Room[] }

export interface ShowRoomReplyV1 { room: V1RoomDetail }

export interface SendNotificationRequestV1 extends RoomRefRequestV1 {
  actor: Actor;
  from: string;
  /** Already sanitized when `messageFormat` is html. */
  message: string;
  messageFormat: MessageFormat;
  notify: boolean;
  /** Concrete colour: `random` is resolved before the command is sent. */
  color: NotificationColor;
}
export interface SendNotificationReplyV1 { status: 'sent'; messageId: string }

export interface SetTopicRequestV1 extends RoomRefRequestV1 {
  actor: Actor;
  topic: string;
  from: string;
}
export interface SetTopicReplyV1 { status: 'ok' }

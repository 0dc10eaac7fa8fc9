/**
 * Objects embedded in webhook event items (specification: "Resources and their fields").
 * Events carry them fully built so that the dispatcher never queries back.
 */
export interface RoomLinks {
  self: string;
  participants: string;
  webhooks: string;
  /** Present for private rooms only. */
  members?: string;
}

export interface RoomObject {
  id: number;
  is_archived: boolean;
  links: RoomLinks;
  name: string;
  privacy: 'public' | 'private';
  version: string;
}

export interface UserObject {
  id: number;
  links: { self: string };
  mention_name: string;
  name: string;
  version: string;
}

export interface OAuthClientObject {
  allowed_scopes?: string[];
  id: string;
  links: { self: string };
  name?: string;
  room: RoomObject | null;
}

/** `item.sender` of room events: a user, an OAuth client or a plain label. */
export type Sender = UserObject | OAuthClientObject | string;

export interface FileObject {
  name: string;
  size: number;
  thumb_url?: string;
  url: string;
}

export type MessageType = 'message' | 'guest_access' | 'topic' | 'notification';

export const NOTIFICATION_COLORS = ['yellow', 'green', 'red', 'purple', 'gray'] as const;
export type NotificationColor = (typeof NOTIFICATION_COLORS)[number];

export const MESSAGE_FORMATS = ['html', 'text'] as const;
export type MessageFormat = (typeof MESSAGE_FORMATS)[number];

/** `item.message` of room_notification. */
export interface NotificationMessageObject {
  color: NotificationColor;
  date: string;
  from: string | null;
  id: string;
  mentions: UserObject[];
  message: string;
  message_format: MessageFormat;
  type: MessageType;
}

export interface MessageLinkObject {
  type: 'image' | 'video' | 'link' | 'social_status' | 'social_user';
  url: string;
  [metadata: string]: unknown;
}

/** `item.message` of room_message. */
export interface MessageObject {
  date: string;
  file?: FileObject;
  from: UserObject | string | null;
  id: string;
  mentions?: UserObject[];
  message: string;
  message_links?: MessageLinkObject[];
  type: MessageType;
}

/**
 * What the rooms service answers: API-neutral views of its records. Each API's presenter
 * shapes them (v1 records, v2 objects); dates are ISO-8601 UTC strings.
 */
export interface RoomView {
  id: number;
  name: string;
  topic: string;
  privacy: 'public' | 'private';
  isArchived: boolean;
  ownerUserId: number;
  created: string;
  /** Time of the newest message; null when none was ever sent. */
  lastActive: string | null;
  xmppJid: string;
  guestAccessUrl: string | null;
  version: string;
}

/** A user as a room names them (its owner, who is in it): what a User object needs. */
export interface RoomUserView {
  userId: number;
  name: string;
  mentionName: string;
  version: string;
}

export interface RoomDetailView extends RoomView {
  memberUserIds: number[];
  /** Who is in the room now, in the order they entered. */
  participants: RoomUserView[];
  /** The owner as a user, when the request asked for it (v2 shows a User object). */
  owner?: RoomUserView;
}

/** How much a room was used: what v2 GET /room/{room}/statistics shows. */
export interface RoomStatisticsView {
  roomId: number;
  /** Messages posted to the room over its whole history: users' messages, files and notifications. */
  messagesSent: number;
  /** As RoomView's: time of the newest message; null when none was ever sent. */
  lastActive: string | null;
}

export type UserStatus = 'offline' | 'away' | 'dnd' | 'available';

export interface UserView {
  id: number;
  name: string;
  mentionName: string;
  email: string;
  title: string;
  photoUrl: string;
  created: string;
  lastActive: string | null;
  status: UserStatus;
  statusMessage: string;
  isGroupAdmin: boolean;
  isDeleted: boolean;
  /** Guests entered through a room's guest access URL; v2 lists leave them out by default. */
  isGuest: boolean;
  timezone: string;
  /** The user's own XMPP address (rooms have theirs on the MUC domain). */
  xmppJid: string;
  version: string;
}

/** A user as a message names them (its sender, the users it mentions). */
export interface MessageUserView {
  id: number;
  name: string;
  mentionName: string;
  version: string;
}

export interface HistoryMessageView {
  id: string;
  date: string;
  type: 'message' | 'notification' | 'topic' | 'guest_access';
  /**
   * userId null: sent through the API by an integration, `name` is its label. v2 reads add
   * the sender's mention name and version (a User object needs them).
   */
  from: { userId: number | null; name: string; mentionName?: string; version?: string };
  message: string;
  messageFormat: 'html' | 'text';
  color: string | null;
  file?: { name: string; size: number; url: string; thumbUrl?: string };
  /** v2 reads: the users the message mentions. */
  mentions?: MessageUserView[];
  /** v2 reads: the link extracted from a user's message. */
  messageLinks?: Array<{ type: string; url: string }>;
  /** v2 reads: the card of a notification, as stored. */
  card?: Record<string, unknown>;
  /** v2 reads: the message this one is attached to. */
  attachTo?: string;
}

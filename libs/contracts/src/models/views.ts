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

export interface RoomDetailView extends RoomView {
  memberUserIds: number[];
  participants: Array<{ userId: number; name: string }>;
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
  timezone: string;
  version: string;
}

export interface HistoryMessageView {
  id: string;
  date: string;
  type: 'message' | 'notification' | 'topic' | 'guest_access';
  /** userId null: sent through the API by an integration, `name` is its label. */
  from: { userId: number | null; name: string };
  message: string;
  messageFormat: 'html' | 'text';
  color: string | null;
  file?: { name: string; size: number; url: string };
}

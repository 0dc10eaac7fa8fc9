/**
 * Records of the version 1 API (compatibility reference, "Version 1 API"), built from the
 * rooms service's views by presenters.ts.
 */
export interface V1Room {
  room_id: number;
  name: string;
  topic: string;
  /** UNIX seconds; 0 when no message was ever sent. */
  last_active: number;
  created: number;
  owner_user_id: number;
  is_archived: boolean;
  is_private: boolean;
  xmpp_jid: string;
  guest_access_url: string | null;
}

export interface V1Participant {
  user_id: number;
  name: string;
}

export interface V1RoomDetail extends V1Room {
  member_user_ids: number[];
  participants: V1Participant[];
}

export type V1UserStatus = 'offline' | 'away' | 'dnd' | 'available';

export interface V1User {
  user_id: number;
  name: string;
  mention_name: string;
  email: string;
  title: string;
  photo_url: string;
  last_active: number;
  created: number;
  status: V1UserStatus;
  status_message: string;
  is_group_admin: 0 | 1;
  is_deleted?: 0 | 1;
  timezone: string;
}

export interface V1HistoryMessage {
  /** ISO-8601 in the requested timezone, e.g. 2010-11-19T15:48:19-0800. */
  date: string;
  from: { name: string; user_id: number | 'api' | 'guest' };
  message: string;
  file?: { name: string; size: number; url: string };
}

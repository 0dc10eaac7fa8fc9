import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';

/**
 * At most this many unread messages are counted per chat, so that a list costs the same
 * however much was missed: an `unread` of UNREAD_CAP means that many or more.
 */
export const UNREAD_CAP = 100;

/** What a chat's unread count and newest message are, rooms and private chats alike. */
interface ChatState {
  /** Messages after the read marker not sent by the user, at most UNREAD_CAP. */
  unread: number;
  /** One of the (newest UNREAD_CAP) unread messages mentions the user. */
  mentioned: boolean;
  lastMessage: { id: string; date: string } | null;
}

export interface ChatRoomView extends ChatState {
  id: number;
  name: string;
  privacy: 'public' | 'private';
}

export interface ChatUserView extends ChatState {
  id: number;
  name: string;
  mentionName: string;
}

/**
 * The acting user's chats (GET /v2/user/{user}/chats, for themselves only): the rooms they
 * are in (member, owner, or opened: a read marker) and may see, not archived, by name; the
 * users they exchanged private messages with, newest conversation first.
 */
export const ListChatsV1 = defineCommand<{ rooms: ChatRoomView[]; users: ChatUserView[] }>('chats.list-chats.v1', z.object({
  actor: actorSchema,
  user: userRefSchema,
}), { query: true });

/**
 * The sidebar's list of a person's chats (the rooms they are in and their private chats) and
 * what the live user stream does to it. Plain functions, no DOM: the rules (names people and
 * screen readers hear, the "99+" cap, which event counts) are tested without a browser.
 */
import { ChatRef, sameChat } from './chat-events';

/** The API counts at most this many unread messages per chat: an `unread` of 100 means 100 or more. */
export const UNREAD_CAP = 100;

export interface ChatEntry extends ChatRef {
  name: string;
  /** When its newest message was sent (ms since the epoch), as the list said. */
  lastAt?: number;
  /** A person's @name (private chats only). */
  mentionName?: string;
  unread: number;
  mentioned: boolean;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const dateOf = (v: unknown): number | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? undefined : t;
};
const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : null);

/** The entries of `GET /v2/user/{me}/chats` (`items`); an item it cannot read is left out. */
export function entriesOf(body: unknown): ChatEntry[] {
  const items = obj(body)?.items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((raw): ChatEntry[] => {
    const item = obj(raw);
    const id = num(item?.id);
    const name = str(item?.name);
    const type = item?.type;
    if (!item || id === null || name === null || (type !== 'room' && type !== 'user')) return [];
    const unread = Math.max(0, Math.min(UNREAD_CAP, num(item.unread) ?? 0));
    const entry: ChatEntry = { type, id, name, unread, mentioned: item.mentioned === true };
    const mentionName = str(item.mention_name);
    if (type === 'user' && mentionName) entry.mentionName = mentionName;
    const lastAt = dateOf(obj(item.last_message)?.date);
    if (lastAt !== undefined) entry.lastAt = lastAt;
    return [entry];
  });
}

/** What the badge shows: the count, "99+" from 100 on (the API's cap). */
export function countLabel(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/** The entry's accessible name: "Ops, 3 unread, mentioned" (the parts that apply). */
export function entryName(entry: ChatEntry): string {
  let name = entry.name;
  if (entry.unread > 0) name += `, ${countLabel(entry.unread)} unread`;
  if (entry.mentioned) name += ', mentioned';
  return name;
}

/** The unread messages of all chats, for the tab's title. */
export function unreadTotal(entries: readonly ChatEntry[]): number {
  return entries.reduce((sum, e) => sum + e.unread, 0);
}

/** The chat was read: no count, no mark. */
export function markRead(entries: readonly ChatEntry[], ref: ChatRef): ChatEntry[] {
  return entries.map((e) => (sameChat(e, ref) && (e.unread > 0 || e.mentioned) ? { ...e, unread: 0, mentioned: false } : e));
}

/** The signed-in person, as the stream's events name them. */
export interface Me {
  id: number;
  mentionName: string;
}

/** What a live event says happened: a new message in a chat, from someone, mentioning me or not. */
export interface Arrival {
  chat: ChatRef;
  /** The chat's name as the event gives it (a room's name, the other person's name). */
  name: string;
  mentionName?: string;
  /** The sender's name (for a notification), and whether the sender is me. */
  from: string;
  fromMe: boolean;
  text: string;
  mentionsMe: boolean;
  /** A private message (notified even without a mention). */
  private: boolean;
  /** When the message was sent (ms since the epoch), if the event says. */
  at?: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a text @mentions the person (`@ann`, not `@anne` nor `mail@ann`). */
export function textMentions(text: string, mentionName: string): boolean {
  if (!mentionName) return false;
  return new RegExp(`(^|[^A-Za-z0-9_.@-])@${escapeRegExp(mentionName)}(?![A-Za-z0-9_])`, 'i').test(text);
}

const dated = (v: unknown): { at?: number } => {
  const at = dateOf(v);
  return at === undefined ? {} : { at };
};

/**
 * The arrival an event of the user stream announces, or null for one that is not a new message
 * (or that it cannot read). Room events carry the room stream's item (`room`, `message` with
 * `mentions`); private_message `{message, from, to}`.
 */
export function arrivalOf(event: string, data: unknown, me: Me): Arrival | null {
  const item = obj(data);
  if (!item) return null;
  if (event === 'private_message') {
    const message = obj(item.message);
    const from = obj(item.from) ?? obj(message?.from);
    const to = obj(item.to);
    const fromId = num(from?.id);
    const toId = num(to?.id);
    if (fromId === null || toId === null) return null;
    const fromMe = fromId === me.id;
    const other = fromMe ? to! : from!;
    const text = str(message?.message) ?? str(item.message) ?? '';
    return {
      chat: { type: 'user', id: fromMe ? toId : fromId },
      name: str(other.name) ?? `User ${fromMe ? toId : fromId}`,
      mentionName: str(other.mention_name) ?? undefined,
      from: str(from!.name) ?? '',
      fromMe,
      text,
      mentionsMe: !fromMe && textMentions(text, me.mentionName),
      private: true,
      ...dated(message?.date),
    };
  }
  if (event !== 'room_message' && event !== 'room_notification' && event !== 'room_file_upload') return null;
  const room = obj(item.room);
  const roomId = num(room?.id);
  if (!room || roomId === null) return null;
  const message = obj(item.message);
  // A message names its sender in `message.from` (a user, or a notification's label); an upload in `sender`.
  const sender = message?.from ?? item.sender;
  const senderUser = obj(sender);
  const fromMe = num(senderUser?.id) === me.id;
  const text = str(message?.message) ?? (obj(item.file) ? `shared ${str(obj(item.file)!.name) ?? 'a file'}` : '');
  const mentions = Array.isArray(message?.mentions) ? message!.mentions as unknown[] : [];
  // @all is everyone's mention, as the server counts it (its `mentions` name no one for it).
  const mentionsMe = !fromMe && (mentions.some((m) => num(obj(m)?.id) === me.id) || textMentions(text, 'all'));
  return {
    chat: { type: 'room', id: roomId },
    name: str(room.name) ?? `Room ${roomId}`,
    from: str(senderUser?.name) ?? str(sender) ?? '',
    fromMe,
    text,
    mentionsMe,
    private: false,
    ...dated(message?.date),
  };
}

/**
 * The list after a new message: one more unread (up to the cap) and the mention mark, unless
 * the person sent it or has that chat open (they read it as it arrives). A private chat with
 * news moves to the top of the private chats (newest first); a chat not yet listed joins.
 */
export function applyArrival(entries: readonly ChatEntry[], arrival: Arrival, open: ChatRef | null): ChatEntry[] {
  const counts = !arrival.fromMe && !sameChat(arrival.chat, open);
  const index = entries.findIndex((e) => sameChat(e, arrival.chat));
  const before = index >= 0 ? entries[index] : {
    ...arrival.chat, name: arrival.name, unread: 0, mentioned: false,
    ...(arrival.mentionName ? { mentionName: arrival.mentionName } : {}),
  };
  const after: ChatEntry = counts
    ? { ...before, unread: Math.min(UNREAD_CAP, before.unread + 1), mentioned: before.mentioned || arrival.mentionsMe }
    : before;
  if (index >= 0 && after === before && arrival.chat.type === 'room') return entries as ChatEntry[];
  const rest = entries.filter((_, i) => i !== index);
  if (arrival.chat.type === 'user') {
    const firstUser = rest.findIndex((e) => e.type === 'user');
    const at = firstUser < 0 ? rest.length : firstUser;
    return [...rest.slice(0, at), after, ...rest.slice(at)];
  }
  if (index >= 0) return entries.map((e, i) => (i === index ? after : e));
  // A room joins the rooms in name order, before the private chats.
  const at = rest.findIndex((e) => e.type === 'user' || e.name.localeCompare(after.name) > 0);
  return at < 0 ? [...rest, after] : [...rest.slice(0, at), after, ...rest.slice(at)];
}

/**
 * Whether an arrival deserves a browser notification: a mention or a private message, from
 * someone else, unless its chat is open in a page the person is looking at.
 */
export function notifies(arrival: Arrival, open: ChatRef | null, pageFocused: boolean): boolean {
  if (arrival.fromMe || !(arrival.mentionsMe || arrival.private)) return false;
  return !(pageFocused && sameChat(arrival.chat, open));
}

/**
 * A list read from the API, with the arrivals that came while it was being read and that it
 * does not count yet (newer than its chat's newest message): a read that started before a
 * message was stored must not undo the count the event added.
 */
export function reconcile(fresh: readonly ChatEntry[], during: readonly Arrival[], open: ChatRef | null): ChatEntry[] {
  return during.reduce<ChatEntry[]>((list, arrival) => {
    const entry = list.find((e) => sameChat(e, arrival.chat));
    const counted = entry !== undefined && (arrival.at === undefined || (entry.lastAt !== undefined && entry.lastAt >= arrival.at));
    return counted ? list : applyArrival(list, arrival, open);
  }, [...fresh]);
}

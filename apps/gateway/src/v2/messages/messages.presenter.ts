import { v2Links, type HistoryMessageView, type MessageUserView } from '@app/contracts';
import { DateTime } from 'luxon';

const UTC_ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Dates of v2 messages as HipChat wrote them: ISO-8601 in the reader's zone, offset with a
 * colon. In UTC, the date as the rooms service wrote it (toISOString) with `+00:00` for `Z`:
 * no parse and format per message.
 */
export function formatMessageDate(iso: string, zone: string): string {
  if (zone === 'UTC' && UTC_ISO_MS.test(iso)) return `${iso.slice(0, -1)}+00:00`;
  return DateTime.fromISO(iso, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSSZZ");
}

/** v2 shapes of history messages; `base` is the public base URL without a trailing slash. */

export interface V2MessageUser {
  id: number;
  links: { self: string };
  mention_name: string;
  name: string;
  version: string;
}

const userObject = (u: MessageUserView, base: string): V2MessageUser =>
  ({ id: u.id, links: { self: v2Links(base).user(u.id) }, mention_name: u.mentionName, name: u.name, version: u.version });

/**
 * A history item as HipChat answered it: a user's message is `from` a User object, a
 * notification from its label (a string) with its colour and format; a card comes as the
 * JSON text HipChat stored.
 */
export function toV2HistoryItem(m: HistoryMessageView, zone: string, base: string) {
  const sender = m.type !== 'notification' && m.from.userId !== null
    ? userObject({ id: m.from.userId, name: m.from.name, mentionName: m.from.mentionName ?? '', version: m.from.version ?? '' }, base)
    : m.from.name || null;
  return {
    id: m.id,
    date: formatMessageDate(m.date, zone),
    from: sender,
    message: m.message,
    ...(m.type === 'notification' ? { message_format: m.messageFormat, color: m.color ?? 'yellow' } : {}),
    mentions: (m.mentions ?? []).map((u) => userObject(u, base)),
    ...(m.messageLinks && m.messageLinks.length > 0 ? { message_links: m.messageLinks } : {}),
    ...(m.file ? { file: { name: m.file.name, size: m.file.size, url: m.file.url, ...(m.file.thumbUrl ? { thumb_url: m.file.thumbUrl } : {}) } } : {}),
    type: m.type,
    ...(m.card ? { card: JSON.stringify(m.card) } : {}),
    ...(m.attachTo ? { attach_to: m.attachTo } : {}),
  };
}
export type V2HistoryItem = ReturnType<typeof toV2HistoryItem>;

/**
 * How the console shows a history item: plain text split into text, @mentions and links;
 * HTML only as the service's sanitizer stored it; a card's text fields as text. Nothing here
 * touches the DOM, so the rules are tested without a browser.
 */

export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; text: string; self: boolean }
  | { kind: 'link'; text: string; href: string };

/** A link the console may follow: http(s) only (never `javascript:`, `data:` or the like). */
export function safeHref(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url, 'http://relative.invalid');
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    // A relative link (a file the service serves) stays relative.
    return parsed.origin === 'http://relative.invalid' ? parsed.pathname + parsed.search : parsed.href;
  } catch {
    return null;
  }
}

const TOKENS = /(@[A-Za-z0-9_][A-Za-z0-9_.-]*)|(https?:\/\/[^\s<>"']+)/g;

/** Plain text as segments: `@name` of a known user is a mention, an http(s) URL a link. */
export function segmentsOf(text: string, mentionNames: ReadonlySet<string>, me?: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKENS)) {
    const [whole, mention, url] = m;
    const at = m.index ?? 0;
    if (mention) {
      const name = mention.slice(1);
      const known = mentionNames.has(name.toLowerCase()) || name.toLowerCase() === 'all' || name.toLowerCase() === 'here';
      if (!known) continue;
      if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
      out.push({ kind: 'mention', text: mention, self: me !== undefined && name.toLowerCase() === me.toLowerCase() });
    } else if (url) {
      // Trailing punctuation ends a sentence, not the link.
      const trimmed = url.replace(/[.,;:!?)\]]+$/, '');
      const href = safeHref(trimmed);
      if (!href) continue;
      if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
      out.push({ kind: 'link', text: trimmed, href });
      last = at + trimmed.length;
      continue;
    }
    last = at + whole.length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export interface CardView {
  title: string;
  description: string;
  url: string | null;
  thumbnail: string | null;
  attributes: Array<{ label: string; value: string }>;
}

const text = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'string') return (v as { value: string }).value;
  return '';
};

/**
 * A card (the history's JSON text, or an object) as text fields and safe links; null when
 * it is not one. An HTML description is shown as its text: tags are not rendered.
 */
export function cardOf(card: unknown): CardView | null {
  let c = card;
  if (typeof c === 'string') {
    try {
      c = JSON.parse(c);
    } catch {
      return null;
    }
  }
  if (!c || typeof c !== 'object' || Array.isArray(c)) return null;
  const o = c as Record<string, unknown>;
  const description = o.description && typeof o.description === 'object' && (o.description as { format?: unknown }).format === 'html'
    ? stripTags(text(o.description)) : text(o.description);
  const attributes = Array.isArray(o.attributes) ? o.attributes.flatMap((a) => {
    if (!a || typeof a !== 'object') return [];
    const { label, value } = a as { label?: unknown; value?: unknown };
    return [{ label: text(label), value: text(value && typeof value === 'object' && 'label' in value ? (value as { label: unknown }).label : value) }];
  }) : [];
  const thumb = o.thumbnail && typeof o.thumbnail === 'object' ? safeHref((o.thumbnail as { url?: unknown }).url) : null;
  return { title: text(o.title), description, url: safeHref(o.url), thumbnail: thumb, attributes };
}

/** Text of an HTML fragment, without parsing it into a document (no resource is loaded). */
export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

export const NOTIFICATION_COLOURS = ['yellow', 'green', 'red', 'purple', 'gray'] as const;

/** The colour class of a notification; anything unknown is shown as yellow (the default). */
export function colourOf(color: unknown): (typeof NOTIFICATION_COLOURS)[number] {
  return NOTIFICATION_COLOURS.find((c) => c === color) ?? 'yellow';
}

/** A history item as the console keeps it, from the history API or a live event. */
export interface ChatItem {
  id: string;
  date: string;
  from: string;
  fromUserId: number | null;
  type: string;
  message: string;
  format: 'html' | 'text';
  color: (typeof NOTIFICATION_COLOURS)[number] | null;
  card: CardView | null;
  file: { name: string; url: string | null; thumbUrl: string | null; size: number | null } | null;
  /** Mention names (lower case) of the users the message mentions: those `@name`s are highlighted. */
  mentions: string[];
}

/** A v2 history item, or the `message` of a room_message / room_notification event item. */
export function chatItemOf(m: Record<string, unknown>): ChatItem | null {
  if (typeof m.id !== 'string' || typeof m.message !== 'string') return null;
  const from = m.from;
  const fromUser = from && typeof from === 'object' ? from as { id?: unknown; name?: unknown } : null;
  const file = m.file && typeof m.file === 'object' ? m.file as Record<string, unknown> : null;
  const notification = m.type === 'notification' || typeof m.color === 'string';
  return {
    id: m.id,
    date: typeof m.date === 'string' ? m.date : '',
    from: fromUser ? text(fromUser.name) : text(from),
    fromUserId: fromUser && typeof fromUser.id === 'number' ? fromUser.id : null,
    type: typeof m.type === 'string' ? m.type : 'message',
    message: m.message,
    format: m.message_format === 'html' ? 'html' : 'text',
    color: notification ? colourOf(m.color) : null,
    card: m.card !== undefined ? cardOf(m.card) : null,
    file: file ? {
      name: text(file.name),
      url: safeHref(file.url),
      thumbUrl: safeHref(file.thumb_url),
      size: typeof file.size === 'number' ? file.size : null,
    } : null,
    mentions: Array.isArray(m.mentions)
      ? m.mentions.flatMap((u) => (u && typeof u === 'object' && typeof (u as { mention_name?: unknown }).mention_name === 'string'
        ? [(u as { mention_name: string }).mention_name.toLowerCase()] : []))
      : [],
  };
}

/** Adds items to a list kept oldest first, each id once (history and live events overlap). */
export function mergeItems(list: readonly ChatItem[], more: readonly ChatItem[], max = 500): ChatItem[] {
  const seen = new Set(list.map((i) => i.id));
  const merged = [...list];
  for (const item of more) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    merged.push(item);
  }
  return merged.length > max ? merged.slice(merged.length - max) : merged;
}

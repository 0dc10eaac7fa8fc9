/**
 * How the console shows a history item: plain text split into text, @mentions and links;
 * HTML only as the service's sanitizer stored it; a card's text fields as text. Nothing here
 * touches the DOM, so the rules are tested without a browser.
 */

export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'mention'; text: string; self: boolean }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'emoticon'; text: string; src: string };

/** The emoticon catalogue as the page uses it: shortcut (lower case) → image address. */
export type Emoticons = ReadonlyMap<string, string>;

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

const TOKENS = /(@[A-Za-z0-9_][A-Za-z0-9_.-]*)|(https?:\/\/[^\s<>"']+)|\(([A-Za-z0-9]{1,50})\)/g;

/**
 * Plain text as segments: `@name` of a known user is a mention, an http(s) URL a link, and
 * `(shortcut)` of a known emoticon its image (the shortcut, as written, its text alternative).
 */
export function segmentsOf(text: string, mentionNames: ReadonlySet<string>, me?: string, emoticons: Emoticons = new Map()): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKENS)) {
    const [whole, mention, url, shortcut] = m;
    const at = m.index ?? 0;
    if (shortcut !== undefined) {
      const src = emoticons.get(shortcut.toLowerCase());
      if (!src) continue;
      if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
      out.push({ kind: 'emoticon', text: whole, src });
    } else if (mention) {
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
  /** The previews of the links the history extracted (`message_links`). */
  previews: Preview[];
}

/** A link's preview as the v2 history describes it (`message_links`): an image, a video or a page. */
export type Preview =
  | { kind: 'image'; href: string; src: string; alt: string }
  | { kind: 'video'; href: string; title: string; thumbnail: string | null; author: string }
  | { kind: 'link'; href: string; title: string; description: string; site: string };

/** The last path segment of a URL, decoded ("cat.png"); '' when it has none. */
export function fileNameOf(url: string): string {
  try {
    const segment = new URL(url, 'http://relative.invalid').pathname.split('/').filter(Boolean).pop() ?? '';
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

/**
 * The previews of a history item's `message_links` (http(s) links only). The service fetches
 * no metadata, so most carry the URL alone: an image is shown from its URL, named by its
 * name or file name; a page only when it has a title or a description.
 */
export function previewsOf(links: unknown): Preview[] {
  if (!Array.isArray(links)) return [];
  return links.flatMap((l): Preview[] => {
    if (!l || typeof l !== 'object') return [];
    const o = l as Record<string, unknown>;
    const href = safeHref(o.url);
    if (!href) return [];
    const meta = (key: string): Record<string, unknown> => (o[key] && typeof o[key] === 'object' ? o[key] as Record<string, unknown> : {});
    if (o.type === 'image') {
      const image = meta('image');
      const src = safeHref(image.image) ?? href;
      const name = text(image.name) || fileNameOf(href);
      return [{ kind: 'image', href, src, alt: name ? `Image: ${name}` : 'Linked image' }];
    }
    if (o.type === 'video') {
      const video = meta('video');
      return [{ kind: 'video', href, title: text(video.title) || href, thumbnail: safeHref(video.thumbnailUrl), author: text(video.author) }];
    }
    if (o.type === 'link') {
      const link = meta('link');
      const title = text(link.title) || text(link.headerText);
      // Without metadata, the link in the text says all there is: no preview repeats it.
      if (!title && !text(link.description)) return [];
      return [{ kind: 'link', href, title: title || href, description: text(link.description), site: hostOf(href) }];
    }
    return [];
  });
}

/** Initials for an avatar ("Ada Lovelace" → "AL", "ci-bot" → "C"); "?" for no name. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0] ?? '';
  const last = words.length > 1 ? [...words[words.length - 1]][0] ?? '' : '';
  return (first + last).toUpperCase() || '?';
}

const minuteOf = (date: string): number | null => {
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : Math.floor(t / 60_000);
};

/**
 * Whether an item goes on under the previous one's header: same sender (the same user, or
 * the same integration's label), same kind (message or notification), within the same minute.
 */
export function continuesGroup(previous: ChatItem | undefined, item: ChatItem): boolean {
  if (!previous) return false;
  const sameSender = item.fromUserId !== null || previous.fromUserId !== null
    ? item.fromUserId === previous.fromUserId
    : item.from === previous.from;
  const minute = minuteOf(item.date);
  return sameSender && (previous.color === null) === (item.color === null) && minute !== null && minute === minuteOf(previous.date);
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
    previews: m.message_format === 'html' ? [] : previewsOf(m.message_links),
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

/** The people a composer can mention: a room's participants and members, or a private chat's two people. */
export interface Person {
  id: number;
  name: string;
  mention_name: string;
}

/** The `@name` being typed before the caret (its start and the text after `@`), or null. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)@([A-Za-z0-9_.-]{0,50})$/.exec(text.slice(0, caret));
  return m ? { start: caret - m[2].length - 1, query: m[2] } : null;
}

/** Who a query could mean, best first: mention names, then names, starting with it; each person once. */
export function mentionCandidates(query: string, people: readonly Person[], max = 8): Person[] {
  const q = query.toLowerCase();
  const seen = new Set<number>();
  const unique = people.filter((p) => (seen.has(p.id) ? false : (seen.add(p.id), true)));
  const byMention = unique.filter((p) => p.mention_name.toLowerCase().startsWith(q));
  const byName = unique.filter((p) => !byMention.includes(p) && p.name.toLowerCase().split(/\s+/).some((w) => w.startsWith(q)));
  return [...byMention, ...byName].slice(0, max);
}

/** The text with the `@query` at `start` replaced by the person's `@mention_name ` and where the caret goes. */
export function completeMention(text: string, start: number, caret: number, person: Person): { text: string; caret: number } {
  const inserted = `@${person.mention_name} `;
  const rest = text.slice(caret).replace(/^\s+/, '');
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length };
}

/**
 * A live `private_message` event's message when it is between me and the other person (either
 * way); null for one of another chat of mine.
 */
export function privateItemOf(data: Record<string, unknown> | null, me: number, other: number): ChatItem | null {
  if (!data) return null;
  const idOf = (u: unknown) => (u && typeof u === 'object' && typeof (u as { id?: unknown }).id === 'number' ? (u as { id: number }).id : null);
  const message = data.message && typeof data.message === 'object' ? data.message as Record<string, unknown> : null;
  if (!message) return null;
  const from = idOf(data.from) ?? idOf(message.from);
  const to = idOf(data.to);
  const between = (from === me && to === other) || (from === other && to === me);
  return between ? chatItemOf(message) : null;
}

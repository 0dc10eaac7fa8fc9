import type { BridgeKind } from '@app/contracts';
import type { BridgeMessage, Doc, Inline } from './formats/types';

/**
 * When a room is faster than its platform allows, consecutive events are coalesced into
 * one post, so that a burst arrives as few posts, in order, within seconds, and nothing is
 * dropped (issue 35 §2). The worker asks, each time its bridge's limiter lets it post, how
 * many of the deliveries waiting in the bridge's lane go into that post: a prefix, so the
 * order holds; at least one, so the lane always moves; and never more than one post holds,
 * so a burst costs few posts of the platform's budget. A lane with one delivery waiting
 * posts it alone: coalescing only happens to what the wait made pile up.
 */

/** One delivery waiting in a bridge's lane, in the lane's order. */
export interface WaitingDelivery {
  deliveryId: string;
  /** What it weighs in a post, in the unit of the platform's PostCapacity.size (estimateSize). */
  size: number;
}

/** How much one post of a platform holds. */
export interface PostCapacity {
  /** Messages one post shows apart (Slack attachments, Discord embeds, Teams containers...). */
  messages: number;
  /** Characters (or bytes, for JSON-size limits) one post holds, less room for the markup around them. */
  size: number;
}

/**
 * How much the lane offers a platform's format for one post, at most: the format itself
 * says what fits (fitsOnePost): plain messages share one post's text as lines, while
 * attachments, embeds and containers count against the platform's own caps (Slack 20
 * attachments recommended, Discord 10 embeds, Teams 28 KB a card). `messages` only bounds
 * the search (rendering costs grow with the batch); `size` is a first cut in characters
 * (or bytes), a fifth below the platform's limit for markup:
 * - Slack 40,000 characters of text; Discord 6,000 across embeds (2,000 of content);
 *   Mattermost 16,383; Rocket.Chat 5,000 (its default); Google Chat 4,096 of text;
 *   Teams 28 KB a card; Matrix 65,536 bytes an event.
 */
const OFFERED = 200;
export const POST_CAPACITY: Readonly<Record<BridgeKind, PostCapacity>> = {
  slack: { messages: OFFERED, size: 32_000 },
  discord: { messages: OFFERED, size: 4_800 },
  teams: { messages: OFFERED, size: 22_400 },
  mattermost: { messages: OFFERED, size: 13_000 },
  rocketchat: { messages: OFFERED, size: 4_000 },
  googlechat: { messages: OFFERED, size: 3_200 },
  matrix: { messages: OFFERED, size: 48_000 },
};

/**
 * How many of `waiting` (in the lane's order) go into the next post: the longest prefix of
 * at most `capacity.messages` whose sizes add up to at most `capacity.size`, at least one
 * (a message larger than a post goes alone: its format splits it into consecutive posts).
 *
 * `fitsOnePost(count)`, when given, is the format's own answer (`format(first count).length
 * <= 1`: it starts a new post where an attachment, a card or a split message needs one): the count is lowered until it holds (it holds for fewer whenever it holds
 * for more, so a binary search), never below one.
 */
export function coalesceCount(
  waiting: readonly WaitingDelivery[],
  capacity: PostCapacity,
  fitsOnePost?: (count: number) => boolean,
): number {
  if (waiting.length === 0) return 0;
  if (!(capacity.messages >= 1) || !(capacity.size > 0)) throw new RangeError('a post holds at least one message of some size');
  let count = 0;
  let size = 0;
  for (const w of waiting) {
    if (count === capacity.messages) break;
    const next = size + Math.max(0, w.size);
    if (count > 0 && next > capacity.size) break;
    count++;
    size = next;
  }
  if (!fitsOnePost || count === 1 || fitsOnePost(count)) return count;
  // fitsOnePost(count) is false and fitsOnePost(1) is taken as true: the largest n in [1, count) that fits.
  let lo = 1;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (fitsOnePost(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * What a message weighs in a post, in characters: its sender, text, card and file as the
 * platform shows them, before markup (the capacities leave room for it).
 */
export function estimateSize(m: Pick<BridgeMessage, 'sender' | 'body' | 'card' | 'file'>): number {
  let size = (m.sender?.length ?? 0) + docSize(m.body);
  if (m.card) {
    size += m.card.title.length + (m.card.description ? docSize(m.card.description) : 0) + (m.card.url?.length ?? 0)
      + (m.card.thumbnail?.length ?? 0) + (m.card.activity?.length ?? 0)
      + m.card.attributes.reduce((n, a) => n + a.label.length + a.value.length + (a.url?.length ?? 0), 0);
  }
  if (m.file) size += m.file.name.length + m.file.url.length + (m.file.imageUrl?.length ?? 0) + 16;
  return size;
}

function docSize(doc: Doc): number {
  let n = 0;
  for (const block of doc) {
    if (block.t === 'paragraph') n += inlineSize(block.children) + 1;
    else if (block.t === 'pre') n += block.text.length + 8;
    else if (block.t === 'list') n += block.items.reduce((s, item) => s + docSize(item) + 3, 0);
    else n += block.rows.reduce((s, row) => s + row.reduce((c, cell) => c + inlineSize(cell) + 3, 0) + 1, 0);
  }
  return n;
}

function inlineSize(children: readonly Inline[]): number {
  let n = 0;
  for (const c of children) {
    if (c.t === 'text' || c.t === 'code') n += c.text.length + (c.t === 'code' ? 2 : 0);
    else if (c.t === 'bold' || c.t === 'italic') n += inlineSize(c.children) + 2;
    else if (c.t === 'link') n += inlineSize(c.children) + c.href.length + 4;
    else if (c.t === 'image') n += c.src.length + c.alt.length + 4;
    else n += 1;
  }
  return n;
}

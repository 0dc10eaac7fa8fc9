import { COLORS } from './colors';
import { pack } from './pack';
import { jsonBytes, splitBlock } from './split';
import type { Block, BridgeCard, BridgeFile, BridgeMessage, Inline, PlatformFormat, PlatformPost } from './types';

/**
 * Matrix: one `m.room.message` event per post, sent with
 * `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`
 * (https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid).
 * The transaction id is derived from the delivery, so a retried post is one event: the
 * homeserver answers a repeated (access token, txnId) with the first event's id.
 *
 * The body is `body` (plain text) and `formatted_body` in `org.matrix.custom.html`, built
 * here from the parsed message with only the tags and attributes the spec lists for
 * `m.room.message` (https://spec.matrix.org/v1.11/client-server-api/#mroommessage-msgtypes),
 * every text escaped. Images must be `mxc://` there, so an http image is a link.
 */

/** The tags the spec permits in `formatted_body`, and each one's permitted attributes. */
export const MATRIX_PERMITTED_HTML: Readonly<Record<string, readonly string[]>> = {
  font: ['data-mx-bg-color', 'data-mx-color', 'color'],
  del: [], h1: [], h2: [], h3: [], h4: [], h5: [], h6: [], blockquote: [], p: [],
  a: ['name', 'target', 'href'],
  ul: [], ol: ['start'], sup: [], sub: [], li: [], b: [], i: [], u: [], strong: [], em: [], strike: [],
  code: ['class'], hr: [], br: [], div: [], table: [], thead: [], tbody: [], tr: [], th: [], td: [], caption: [], pre: [],
  span: ['data-mx-bg-color', 'data-mx-color', 'data-mx-spoiler'],
  img: ['width', 'height', 'alt', 'title', 'src'],
  details: [], summary: [],
};

/** The link schemes the spec permits for `a href`. */
const PERMITTED_SCHEMES = ['https:', 'http:', 'ftp:', 'mailto:', 'magnet:'];

/**
 * An event is at most 65,536 bytes as the homeserver stores it
 * (https://spec.matrix.org/v1.11/client-server-api/#size-limits), and the server adds its
 * envelope (sender, room id, hashes, signatures, previous and auth events) to our content:
 * the content keeps well below, with room for that envelope.
 */
export const MATRIX_CONTENT_MAX_BYTES = 60_000;

/** A piece of one message: a block-level HTML element and its plain-text twin. */
interface Unit {
  message: number;
  html: string;
  /** The inside of a lone paragraph: an event of one paragraph needs no `<p>`. */
  inlineHtml: string | null;
  text: string;
}

export const matrix: PlatformFormat = (messages, target) => {
  if (!target.matrixRoomId) throw new Error('a Matrix bridge posts into a room: matrixRoomId is required');
  const roomPath = `/_matrix/client/v3/rooms/${encodeURIComponent(target.matrixRoomId)}/send/m.room.message/`;
  const posts: PlatformPost[] = [];
  const partsStartedIn = new Map<number, number>();
  // An event has one msgtype: consecutive notices and people's messages go in separate events.
  for (const run of runsBy(messages, (m) => m.notice)) {
    const units = run.flatMap((i) => messageUnits(messages[i], i));
    for (const group of pack(units, (g) => jsonBytes(content(g, messages[run[0]].notice)) <= MATRIX_CONTENT_MAX_BYTES)) {
      const first = group[0].message;
      const part = partsStartedIn.get(first) ?? 0;
      partsStartedIn.set(first, part + 1);
      const txnId = `${messages[first].deliveryId}.${part}`;
      posts.push({ method: 'PUT', path: roomPath + encodeURIComponent(txnId), body: content(group, messages[first].notice) });
    }
  }
  return posts;
};

function content(units: readonly Unit[], notice: boolean): Record<string, unknown> {
  const html = units.length === 1 && units[0].inlineHtml !== null ? units[0].inlineHtml : units.map((u) => u.html).join('');
  return {
    msgtype: notice ? 'm.notice' : 'm.text',
    body: units.map((u) => u.text).join('\n'),
    format: 'org.matrix.custom.html',
    formatted_body: html,
    // Mentions are intentional only (https://spec.matrix.org/v1.11/client-server-api/#user-and-room-mentions):
    // a bridged "@all" or a name in the text pings nobody in Matrix.
    'm.mentions': {},
  };
}

function runsBy<T>(items: readonly T[], key: (item: T) => unknown): number[][] {
  const runs: number[][] = [];
  items.forEach((item, i) => {
    const last = runs[runs.length - 1];
    if (last && key(items[last[0]]) === key(item)) last.push(i);
    else runs.push([i]);
  });
  return runs;
}

// ---- one message ----------------------------------------------------------------------

/** Room left in a unit for the sender's prefix and the event's other fields. */
const UNIT_MAX_BYTES = MATRIX_CONTENT_MAX_BYTES - 2_000;

function messageUnits(m: BridgeMessage, index: number): Unit[] {
  // A card replaces the message it came with: HipChat's `message` is the card's fallback.
  const blocks: Block[] = m.card ? cardBlocks(m.card) : [...m.body];
  // The file's link and size are in the body (toBridgeMessage): a preview is what Matrix adds.
  if (m.file?.imageUrl && m.file.imageUrl !== m.file.url) blocks.push(previewBlock(m.file));
  const fits = (b: Block) => {
    const u = blockUnit(b, index);
    return jsonBytes([u.html, u.text]) <= UNIT_MAX_BYTES;
  };
  const units = blocks.flatMap((b) => splitBlock(b, fits)).map((b) => blockUnit(b, index));
  const prefix = senderPrefix(m);
  if (prefix) {
    const first = units[0];
    if (first && first.inlineHtml !== null) {
      units[0] = { ...first, html: `<p>${prefix.html}${first.inlineHtml}</p>`, inlineHtml: prefix.html + first.inlineHtml, text: prefix.text + first.text };
    } else {
      const html = prefix.html.replace(/: $/, ':');
      units.unshift({ message: index, html: `<p>${html}</p>`, inlineHtml: html, text: prefix.text.trimEnd() });
    }
  }
  return units;
}

/** The notification's colour as a dot and the sender in bold: Matrix has no colour bar. */
function senderPrefix(m: BridgeMessage): { html: string; text: string } | null {
  if (!m.sender && !m.color) return null;
  const dot = m.color ? `<font data-mx-color="${COLORS[m.color].hex}">●</font> ` : '';
  const name = m.sender ? `<strong>${esc(m.sender)}</strong>: ` : '';
  return { html: dot + name, text: m.sender ? `${m.sender}: ` : '' };
}

/** A card as Matrix HTML: the title (a link to the card's url), its activity, description, attributes as a table, the thumbnail as a link. */
function cardBlocks(card: BridgeCard): Block[] {
  const title: Inline = { t: 'bold', children: [{ t: 'text', text: card.title }] };
  const blocks: Block[] = [{ t: 'paragraph', children: [card.url ? { t: 'link', href: card.url, children: [title] } : title] }];
  if (card.activity) blocks.push({ t: 'paragraph', children: [{ t: 'italic', children: [{ t: 'text', text: card.activity }] }] });
  if (card.description) blocks.push(...card.description);
  if (card.attributes.length > 0) {
    blocks.push({
      t: 'table',
      header: false,
      rows: card.attributes.map((a) => [
        [{ t: 'bold', children: [{ t: 'text', text: a.label }] }],
        [a.url ? { t: 'link', href: a.url, children: [{ t: 'text', text: a.value }] } : { t: 'text', text: a.value }],
      ]),
    });
  }
  if (card.thumbnail) blocks.push({ t: 'paragraph', children: [{ t: 'image', src: card.thumbnail, alt: 'Thumbnail' }] });
  return blocks;
}

/** An http image cannot be shown inline in Matrix (mxc:// only): the preview is a link. */
function previewBlock(file: BridgeFile): Block {
  return { t: 'paragraph', children: [{ t: 'image', src: file.imageUrl!, alt: 'preview' }] };
}

// ---- HTML and plain text ------------------------------------------------------------

function blockUnit(b: Block, message: number): Unit {
  if (b.t === 'paragraph') {
    const inner = inlinesHtml(b.children);
    return { message, html: `<p>${inner}</p>`, inlineHtml: inner, text: inlinesText(b.children) };
  }
  return { message, html: blockHtml(b), inlineHtml: null, text: blockText(b) };
}

function blockHtml(b: Block): string {
  switch (b.t) {
    case 'paragraph':
      return `<p>${inlinesHtml(b.children)}</p>`;
    case 'pre':
      return `<pre><code>${esc(b.text)}</code></pre>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      return `<${tag}>${b.items.map((item) => `<li>${itemHtml(item)}</li>`).join('')}</${tag}>`;
    }
    case 'table': {
      const row = (cells: Inline[][], cell: 'th' | 'td') => `<tr>${cells.map((c) => `<${cell}>${inlinesHtml(c)}</${cell}>`).join('')}</tr>`;
      const head = b.header && b.rows.length > 0 ? `<thead>${row(b.rows[0], 'th')}</thead>` : '';
      const rows = b.header ? b.rows.slice(1) : b.rows;
      return `<table>${head}<tbody>${rows.map((r) => row(r, 'td')).join('')}</tbody></table>`;
    }
  }
}

/** A list item of one paragraph is its text; more, and each block keeps its element. */
const itemHtml = (item: Block[]): string =>
  item.length === 1 && item[0].t === 'paragraph' ? inlinesHtml(item[0].children) : item.map(blockHtml).join('');

function inlinesHtml(inlines: readonly Inline[]): string {
  return inlines.map(inlineHtml).join('');
}

function inlineHtml(i: Inline): string {
  switch (i.t) {
    case 'text':
      return esc(i.text).replace(/\n/g, '<br>');
    case 'bold':
      return `<strong>${inlinesHtml(i.children)}</strong>`;
    case 'italic':
      return `<em>${inlinesHtml(i.children)}</em>`;
    case 'code':
      return `<code>${esc(i.text)}</code>`;
    case 'link':
      return permittedHref(i.href) ? `<a href="${esc(normalHref(i.href))}">${inlinesHtml(i.children)}</a>` : inlinesHtml(i.children);
    case 'image':
      if (i.src.startsWith('mxc://')) return `<img src="${esc(i.src)}" alt="${esc(i.alt)}">`;
      return permittedHref(i.src) ? `<a href="${esc(normalHref(i.src))}">${esc(i.alt || i.src)}</a>` : esc(i.alt);
    case 'br':
      return '<br>';
  }
}

function permittedHref(href: string): boolean {
  try {
    return PERMITTED_SCHEMES.includes(new URL(href).protocol);
  } catch {
    return false;
  }
}

/** The URL as a browser would send it (a space percent-encoded), so clients' linkifiers keep it whole. */
const normalHref = (href: string): string => new URL(href).href;

function blockText(b: Block, indent = ''): string {
  switch (b.t) {
    case 'paragraph':
      return indent + inlinesText(b.children);
    case 'pre':
      return b.text;
    case 'list':
      return b.items
        .map((item, n) => {
          const marker = b.ordered ? `${n + 1}. ` : '- ';
          const [first, ...rest] = item;
          const head = first ? blockText(first).replace(/^/, indent + marker) : indent + marker.trimEnd();
          return [head, ...rest.map((r) => blockText(r, indent + '   '))].join('\n');
        })
        .join('\n');
    case 'table':
      return b.rows.map((r) => indent + r.map(inlinesText).join(' | ')).join('\n');
  }
}

function inlinesText(inlines: readonly Inline[]): string {
  return inlines.map(inlineText).join('');
}

function inlineText(i: Inline): string {
  switch (i.t) {
    case 'text':
    case 'code':
      return i.text;
    case 'bold':
    case 'italic':
      return inlinesText(i.children);
    case 'link': {
      const text = inlinesText(i.children);
      if (!permittedHref(i.href)) return text;
      const href = normalHref(i.href);
      return text === i.href || text === href || text === '' ? href : `${text} (${href})`;
    }
    case 'image':
      return i.alt ? `${i.alt} (${i.src})` : i.src;
    case 'br':
      return '\n';
  }
}

/** Text into HTML: the five characters that could open markup or end an attribute. */
const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

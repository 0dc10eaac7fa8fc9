import { pack } from './pack';
import { jsonBytes, splitBlock } from './split';
import type { Block, BridgeCard, BridgeFile, BridgeMessage, Inline, PlatformFormat, PlatformPost } from './types';

/**
 * Google Chat incoming webhook: `text` in Chat's own markup (`*bold*`, `_italic_`,
 * `~strike~`, `` `code` ``, ``` blocks, `<url|text>` links:
 * https://developers.google.com/workspace/chat/format-messages#format-texts), and a card
 * as `cardsV2` (https://developers.google.com/workspace/chat/api/reference/rest/v1/cards)
 * whose text widgets take Chat's small HTML subset (`<b> <i> <u> <s> <font> <a> <br>`:
 * https://developers.google.com/workspace/chat/format-messages#card-formatting).
 *
 * A webhook always posts as the webhook's own name, so the sender's name is bold before the
 * text. Chat has no colour for a message (no bar, no background): the colour is not shown,
 * and what the notification says carries its meaning.
 */

/** `text` is at most 4,096 characters (https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages#Message.FIELDS.text). */
export const GOOGLE_CHAT_TEXT_MAX = 4_096;
/** A message, text and cards together, is at most 32,000 bytes (https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/create). */
export const GOOGLE_CHAT_POST_MAX_BYTES = 32_000;

type Unit = { kind: 'text'; text: string } | { kind: 'card'; card: Record<string, unknown> };

export const googlechat: PlatformFormat = (messages) => {
  const units = messages.flatMap(messageUnits);
  return pack(
    units,
    (g) => textOf(g).length <= GOOGLE_CHAT_TEXT_MAX && jsonBytes(post(g).body) <= GOOGLE_CHAT_POST_MAX_BYTES,
    // Chat shows a post's text above its cards: text after a card starts the next post, to keep the room's order.
    (g, next) => next.kind === 'card' || g.every((u) => u.kind === 'text'),
  ).map(post);
};

const textOf = (units: readonly Unit[]): string => units.flatMap((u) => (u.kind === 'text' ? [u.text] : [])).join('\n');

function post(units: readonly Unit[]): PlatformPost {
  const text = textOf(units);
  const cards = units.flatMap((u) => (u.kind === 'card' ? [u.card] : []));
  return { method: 'POST', path: '', body: { ...(text ? { text } : {}), ...(cards.length > 0 ? { cardsV2: cards } : {}) } };
}

/** Room in one text unit for the sender's name before it. */
const BLOCK_MAX = GOOGLE_CHAT_TEXT_MAX - 200;

function messageUnits(m: BridgeMessage): Unit[] {
  const prefix = m.sender ? `${bold(plainText(m.sender))}: ` : '';
  const units: Unit[] = [];
  if (m.card) {
    units.push({ kind: 'card', card: cardV2(`card-${m.deliveryId}`, m.card, m.sender) });
  } else {
    const blocks = m.body.flatMap((b) => splitBlock(b, (x) => blockText(x).length <= BLOCK_MAX)).map((b) => blockText(b));
    // A code block, list or table starts on its own line, where Chat's markup expects it.
    const lead = m.body[0]?.t === 'paragraph' ? prefix : prefix.replace(/ $/, '\n');
    const chunks = pack(blocks, (g) => (lead + g.join('\n')).length <= GOOGLE_CHAT_TEXT_MAX);
    chunks.forEach((g, n) => units.push({ kind: 'text', text: (n === 0 ? lead : '') + g.join('\n') }));
    if (chunks.length === 0 && prefix) units.push({ kind: 'text', text: prefix.trimEnd() });
  }
  if (m.file) units.push(...fileUnits(m.file, m.deliveryId));
  return units;
}

/** A file's link and size are in the body (toBridgeMessage); its image is shown in a card, the only place Chat shows one. */
function fileUnits(file: BridgeFile, deliveryId: string): Unit[] {
  const units: Unit[] = [];
  if (file.imageUrl && webUrl(file.imageUrl)) {
    units.push({
      kind: 'card',
      card: { cardId: `file-${deliveryId}`, card: { sections: [{ widgets: [{ image: { imageUrl: file.imageUrl, altText: file.name, onClick: { openLink: { url: file.url } } } }] }] } },
    });
  }
  return units;
}

function cardV2(cardId: string, given: BridgeCard, sender: string | null): Record<string, unknown> {
  // Chat opens and loads web addresses only: any other link or image of the card is left out.
  const web = (url: string | null) => (url && webUrl(url) ? url : null);
  const card = { ...given, url: web(given.url), thumbnail: web(given.thumbnail), icon: web(given.icon) };
  const subtitle = [sender, card.activity].filter((s): s is string => !!s).join(' · ');
  const widgets: Record<string, unknown>[] = [];
  if (card.description && card.description.length > 0) widgets.push({ textParagraph: { text: card.description.map(blockHtml).join('<br>') } });
  for (const a of card.attributes) {
    widgets.push({ decoratedText: { topLabel: a.label, text: a.url && webUrl(a.url) ? `<a href="${escHtml(normalHref(a.url))}">${escHtml(a.value)}</a>` : escHtml(a.value), wrapText: true } });
  }
  if (card.thumbnail) widgets.push({ image: { imageUrl: card.thumbnail, altText: card.title } });
  if (card.url) widgets.push({ buttonList: { buttons: [{ text: 'Open', onClick: { openLink: { url: card.url } } }] } });
  return {
    cardId,
    card: {
      header: { title: card.title, ...(subtitle ? { subtitle } : {}), ...(card.icon ? { imageUrl: card.icon, imageType: 'SQUARE' } : {}) },
      sections: widgets.length > 0 ? [{ widgets }] : [],
    },
  };
}

// ---- text in Chat's markup ------------------------------------------------------------

function blockText(b: Block, indent = ''): string {
  switch (b.t) {
    case 'paragraph':
      return indent + inlinesText(b.children);
    case 'pre':
      return '```\n' + b.text + '\n```';
    case 'list':
      return b.items
        .map((item, n) => {
          const marker = b.ordered ? `${n + 1}. ` : '• ';
          return item.map((x, k) => (x.t === 'list' ? blockText(x, `${indent}    `) : (k === 0 ? indent + marker : `${indent}   `) + blockText(x))).join('\n');
        })
        .join('\n');
    case 'table':
      return tableText(b);
  }
}

/** Chat's text has no tables: a monospace block with the columns aligned reads as one. */
function tableText(b: Extract<Block, { t: 'table' }>): string {
  const rows = b.rows.map((r) => r.map((c) => inlinesPlain(c).replace(/\s+/g, ' ').trim()));
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, [...c].length)), []);
  const line = (r: string[]) => widths.map((w, i) => (r[i] ?? '').padEnd(w)).join(' | ').trimEnd();
  const lines = rows.map(line);
  if (b.header && lines.length > 0) lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('-+-'));
  return '```\n' + lines.join('\n') + '\n```';
}

function inlinesText(inlines: readonly Inline[]): string {
  return inlines.map(inlineText).join('');
}

function inlineText(i: Inline): string {
  switch (i.t) {
    case 'text':
      return plainText(i.text);
    case 'bold':
      return emphasis('*', inlinesText(i.children));
    case 'italic':
      return emphasis('_', inlinesText(i.children));
    case 'code':
      return i.text.includes('`') ? i.text : '`' + i.text + '`';
    case 'link':
      return webUrl(i.href) || i.href.startsWith('mailto:') ? link(i.href, inlinesPlain(i.children)) : plainText(inlinesPlain(i.children));
    case 'image':
      return webUrl(i.src) ? link(i.src, i.alt) : plainText(i.alt);
    case 'br':
      return '\n';
  }
}

const bold = (s: string) => emphasis('*', s);

function emphasis(marker: string, inner: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return m[2] ? `${m[1]}${marker}${m[2]}${marker}${m[3]}` : inner;
}

/** `<url|text>`; the text cannot hold a `>` (it would end the link), and a link that is its own text is the bare URL. */
function link(href: string, text: string): string {
  const url = normalHref(href);
  const shown = text.replace(/>/g, '›').replace(/\s+/g, ' ').trim();
  return !shown || shown === href || shown === url ? `<${url}>` : `<${url}|${shown}>`;
}

/** Chat opens web addresses only: a `javascript:` link is its text, an `mxc:` image its alt text. */
const webUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/** The URL as a browser sends it (spaces percent-encoded), with the `|` and `>` that would end Chat's link syntax encoded too. */
function normalHref(href: string): string {
  let url = href;
  try {
    url = new URL(href).href;
  } catch {
    // Not a URL a browser would parse: sent as written, minus the link syntax's own characters.
  }
  return url.replace(/\|/g, '%7C').replace(/>/g, '%3E').replace(/ /g, '%20');
}

/**
 * People's text, as written. Chat's markup has no escape character, but `<` opens its
 * links and mentions: a zero-width space after it keeps "<users/all>" in a bridged
 * message from notifying the whole space.
 */
const plainText = (s: string): string => s.replace(/<(?=[A-Za-z/!#@])/g, '<\u200b');

function inlinesPlain(inlines: readonly Inline[]): string {
  return inlines.map((i) => (i.t === 'text' || i.t === 'code' ? i.text : i.t === 'br' ? ' ' : i.t === 'image' ? i.alt : inlinesPlain(i.children))).join('');
}

// ---- card text in Chat's HTML subset --------------------------------------------------

function blockHtml(b: Block): string {
  switch (b.t) {
    case 'paragraph':
      return inlinesHtml(b.children);
    case 'pre':
      return escHtml(b.text).replace(/\n/g, '<br>');
    case 'list':
      return b.items.map((item, n) => `${b.ordered ? `${n + 1}.` : '•'} ${item.map(blockHtml).join('<br>')}`).join('<br>');
    case 'table':
      return b.rows.map((r) => r.map(inlinesHtml).join(' | ')).join('<br>');
  }
}

function inlinesHtml(inlines: readonly Inline[]): string {
  return inlines
    .map((i) => {
      switch (i.t) {
        case 'text':
          return escHtml(i.text).replace(/\n/g, '<br>');
        case 'bold':
          return `<b>${inlinesHtml(i.children)}</b>`;
        case 'italic':
          return `<i>${inlinesHtml(i.children)}</i>`;
        case 'code':
          return escHtml(i.text);
        case 'link':
          return webUrl(i.href) ? `<a href="${escHtml(normalHref(i.href))}">${inlinesHtml(i.children) || escHtml(i.href)}</a>` : inlinesHtml(i.children);
        case 'image':
          return webUrl(i.src) ? `<a href="${escHtml(normalHref(i.src))}">${escHtml(i.alt || i.src)}</a>` : escHtml(i.alt);
        case 'br':
          return '<br>';
      }
    })
    .join('');
}

const escHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

import { pack } from './pack';
import { jsonBytes, splitBlock } from './split';
import { COLORS } from './colors';
import type { Block, BridgeCard, BridgeMessage, Inline, PlatformFormat, PlatformPost } from './types';

/**
 * Microsoft Teams: an Adaptive Card inside the `message` envelope that both incoming-webhook
 * kinds accept, the Workflows one ("post to a channel when a webhook request is received")
 * and the legacy connector
 * (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#send-adaptive-cards-using-an-incoming-webhook).
 *
 * Text is in the Markdown subset Teams renders in a TextBlock and in facts: bold, italic,
 * lists and links; no headings, tables, images, code or quotes
 * (https://learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/cards-format).
 * So a table is a Table element (card 1.5), an image an Image element, a code block
 * monospace TextBlocks, and text is escaped so that what people wrote shows as written.
 * Each message is a Container, its colour the container's style
 * (https://adaptivecards.io/explorer/Container.html).
 */

/** Teams refuses a message over 28 KB (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook). */
export const TEAMS_POST_MAX_BYTES = 28_000;
/**
 * What a post is packed to. Teams counts the message as it stores it, not our request
 * body, and clients that measured report refusals from about 21 KB of card JSON; a refusal
 * (413) is a 4xx that disables the bridge, so posts keep clear of it.
 */
export const TEAMS_POST_BUDGET_BYTES = 20_000;


type Element = Record<string, unknown>;

interface Unit {
  message: number;
  element: Element;
}

export const teams: PlatformFormat = (messages) => {
  const units = messages.flatMap((m, i) => messageElements(m).map((element) => ({ message: i, element })));
  return pack(units, (g) => jsonBytes(post(g, messages).body) <= TEAMS_POST_BUDGET_BYTES).map((g) => post(g, messages));
};

function post(units: readonly Unit[], messages: readonly BridgeMessage[]): PlatformPost {
  const containers: Element[] = [];
  let current: { message: number; items: Element[] } | null = null;
  for (const u of units) {
    if (!current || current.message !== u.message) {
      current = { message: u.message, items: [] };
      const color = messages[u.message].color;
      containers.push({
        type: 'Container',
        ...(color ? { style: COLORS[color].teams } : {}),
        ...(containers.length > 0 ? { separator: true, spacing: 'Medium' } : {}),
        items: current.items,
      });
    }
    current.items.push(u.element);
  }
  const usesTable = units.some((u) => u.element.type === 'Table');
  return {
    method: 'POST',
    path: '',
    body: {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            // Table arrived in 1.5; a card without one stays at 1.4 for older Teams clients.
            version: usesTable ? '1.5' : '1.4',
            body: containers,
            // Full width: tables and code read badly in Teams' default narrow card.
            msteams: { width: 'Full' },
          },
        },
      ],
    },
  };
}

/** Room left in one element for the envelope and the container around it. */
const ELEMENT_MAX_BYTES = TEAMS_POST_BUDGET_BYTES - 2_000;

function messageElements(m: BridgeMessage): Element[] {
  // A card replaces the message it came with: HipChat's `message` is the card's fallback.
  const fits = (b: Block) => jsonBytes(blockElements(b)) <= ELEMENT_MAX_BYTES;
  // Split first, then name the sender: the name stays on the first line of text, not alone on one.
  const blocks: Block[] = m.card ? [] : withSender(m.sender, m.body.flatMap((b) => splitBlock(b, fits)));
  const elements = blocks.flatMap(blockElements);
  if (m.card) elements.push(...cardElements(m.card, m.sender, fits));
  // The file's link and size are in the body (toBridgeMessage): the image is what Teams adds.
  if (m.file?.imageUrl && webUrl(m.file.imageUrl)) elements.push({ type: 'Image', url: m.file.imageUrl, altText: m.file.name, size: 'Large' });
  return elements;
}

/** The sender's name in bold before the text: an incoming webhook cannot post as someone else. */
function withSender(sender: string | null, body: readonly Block[]): Block[] {
  if (!sender) return [...body];
  const name: Inline[] = [{ t: 'bold', children: [{ t: 'text', text: sender }] }, { t: 'text', text: ': ' }];
  const [first, ...rest] = body;
  if (first?.t === 'paragraph') return [{ t: 'paragraph', children: [...name, ...first.children] }, ...rest];
  return [{ t: 'paragraph', children: name.slice(0, 1) }, ...body];
}

function cardElements(given: BridgeCard, sender: string | null, fits: (b: Block) => boolean): Element[] {
  const card = webCard(given);
  const elements: Element[] = [];
  if (sender) elements.push({ type: 'TextBlock', text: `**${escapeMd(sender)}**`, wrap: true, isSubtle: true });
  const title = card.url ? link(card.url, escapeMd(card.title)) : escapeMd(card.title);
  if (card.icon) {
    elements.push({
      type: 'ColumnSet',
      columns: [
        { type: 'Column', width: 'auto', items: [{ type: 'Image', url: card.icon, size: 'Small', altText: '' }] },
        { type: 'Column', width: 'stretch', verticalContentAlignment: 'Center', items: [{ type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true }] },
      ],
    });
  } else {
    elements.push({ type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true });
  }
  if (card.activity) elements.push({ type: 'TextBlock', text: `_${escapeMd(card.activity)}_`, isSubtle: true, wrap: true, spacing: 'None' });
  if (card.description) elements.push(...card.description.flatMap((b) => splitBlock(b, fits)).flatMap(blockElements));
  if (card.attributes.length > 0) {
    elements.push({
      type: 'FactSet',
      facts: card.attributes.map((a) => ({ title: escapeMd(a.label), value: a.url && webUrl(a.url) ? link(a.url, escapeMd(a.value)) : escapeMd(a.value) })),
    });
  }
  if (card.thumbnail) elements.push({ type: 'Image', url: card.thumbnail, altText: card.title, size: 'Medium' });
  if (card.url) elements.push({ type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: 'Open', url: card.url }] });
  return elements;
}

/** A card's addresses as Teams may use them: a link or image that is not a web address is left out. */
const webCard = (card: BridgeCard): BridgeCard => {
  const web = (url: string | null) => (url && webUrl(url) ? url : null);
  return { ...card, url: web(card.url), thumbnail: web(card.thumbnail), icon: web(card.icon) };
};

// ---- blocks --------------------------------------------------------------------------

function blockElements(b: Block): Element[] {
  switch (b.t) {
    case 'paragraph':
      return [{ type: 'TextBlock', text: inlinesMd(b.children) || '\u00a0', wrap: true }, ...images(b.children)];
    case 'pre':
      // Markdown would join the lines and drop leading spaces: one monospace line each keeps the layout.
      return b.text.split('\n').map((line, n) => ({
        type: 'TextBlock',
        text: escapeMd(line).replace(/^ +/, (spaces) => '\u00a0'.repeat(spaces.length)) || '\u00a0',
        fontType: 'Monospace',
        wrap: true,
        spacing: n === 0 ? 'Default' : 'None',
      }));
    case 'list':
      return [{ type: 'TextBlock', text: listMd(b, ''), wrap: true }, ...b.items.flatMap((item) => item.flatMap(blockImages))];
    case 'table': {
      const width = Math.max(1, ...b.rows.map((r) => r.length));
      return [
        {
          type: 'Table',
          firstRowAsHeader: b.header,
          columns: Array.from({ length: width }, () => ({ width: 1 })),
          rows: b.rows.map((r) => ({
            type: 'TableRow',
            cells: Array.from({ length: width }, (_, c) => ({
              type: 'TableCell',
              items: [{ type: 'TextBlock', text: inlinesMd(r[c] ?? []) || '\u00a0', wrap: true }],
            })),
          })),
        },
        ...b.rows.flatMap((r) => r.flatMap(images)),
      ];
    }
  }
}

/** Lists in Teams' Markdown: "- item" or "1. item", one per line; a nested list indented under its item. */
function listMd(list: Extract<Block, { t: 'list' }>, indent: string): string {
  return list.items
    .map((item, n) => {
      const marker = list.ordered ? `${n + 1}. ` : '- ';
      const lines = item.map((b) => (b.t === 'list' ? listMd(b, `${indent}    `) : b.t === 'paragraph' ? inlinesMd(b.children) : b.t === 'pre' ? escapeMd(b.text) : tableText(b)));
      return `${indent}${marker}${lines.join('\n')}`;
    })
    .join('\n');
}

const tableText = (b: Extract<Block, { t: 'table' }>): string => b.rows.map((r) => r.map(inlinesMd).join(' | ')).join('\n');

const blockImages = (b: Block): Element[] =>
  b.t === 'paragraph' ? images(b.children) : b.t === 'list' ? b.items.flatMap((i) => i.flatMap(blockImages)) : [];

/** Markdown has no images in Teams: each one is an Image element after its text, where people see it. */
function images(inlines: readonly Inline[]): Element[] {
  return inlines.flatMap((i): Element[] => {
    if (i.t === 'image') return webUrl(i.src) ? [{ type: 'Image', url: i.src, altText: i.alt }] : [];
    if (i.t === 'bold' || i.t === 'italic' || i.t === 'link') return images(i.children);
    return [];
  });
}

// ---- inline Markdown -----------------------------------------------------------------

function inlinesMd(inlines: readonly Inline[]): string {
  return inlines.map(inlineMd).join('');
}

function inlineMd(i: Inline): string {
  switch (i.t) {
    case 'text':
      return escapeMd(i.text).replace(/\n/g, '\n\n');
    case 'bold':
      return emphasis('**', inlinesMd(i.children));
    case 'italic':
      return emphasis('_', inlinesMd(i.children));
    case 'code':
      // Teams' card Markdown has no inline code: the text, as written.
      return escapeMd(i.text);
    case 'link':
      if (!webUrl(i.href) && !i.href.startsWith('mailto:')) return inlinesMd(i.children);
      return link(i.href, inlinesMd(i.children) || escapeMd(i.href));
    case 'image':
      return webUrl(i.src) ? link(i.src, escapeMd(i.alt || i.src)) : escapeMd(i.alt);
    case 'br':
      // A TextBlock breaks a line only at a blank line (the formatting guide above).
      return '\n\n';
  }
}

/** `**x**` must hug its text: spaces move outside the markers, and an empty run has none. */
function emphasis(marker: string, inner: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return m[2] ? `${m[1]}${marker}${m[2]}${marker}${m[3]}` : inner;
}

/** Teams opens and loads only web addresses: a `javascript:` link is its text, an `mxc:` image its alt text. */
const webUrl = (url: string): boolean => /^https?:\/\//i.test(url);

function link(href: string, text: string): string {
  return `[${text}](${href.replace(/[ ()<>]/g, (c) => encodeURIComponent(c).replace('(', '%28').replace(')', '%29'))})`;
}

/**
 * Text shows as written: the characters Teams' Markdown acts on are backslash-escaped
 * (CommonMark's escapes, which the Adaptive Cards renderers honour), and so are an `&`
 * that would start an entity (Markdown decodes `&amp;`: entities are decoded once) and line starts
 * that would begin a list, a heading or a quote. A bare URL is left whole so it stays a link.
 */
export function escapeMd(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>()[\]]+)/)
    .map((part, n) => (n % 2 === 1 ? part : part.replace(/[\\*_[\]`~]/g, '\\$&').replace(/&(?=#?\w+;)/g, '\\&')))
    .join('')
    .replace(/^(\s*)([-+>#])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

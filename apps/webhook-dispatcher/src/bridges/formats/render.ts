import { inlineText } from './html';
import type { Block, Doc, Inline } from './types';

/**
 * A Doc as the text of a chat post: Slack's mrkdwn or the Markdown of Mattermost,
 * Rocket.Chat and Discord. One walker, a dialect per platform, so the platforms differ only
 * where their documentation does.
 */
export interface Dialect {
  /** Text as the platform shows it literally. */
  escape(text: string): string;
  bold(inner: string): string;
  italic(inner: string): string;
  code(text: string): string;
  pre(text: string): string;
  link(href: string, label: string): string;
  image(src: string, alt: string): string;
  /** A list item's bullet; Slack has no list syntax, so its bullet is a character. */
  bullet(ordered: boolean, n: number): string;
  /** Markdown tables where the platform renders them; else an aligned code block. */
  tables: 'markdown' | 'code';
}

export function renderDoc(doc: Doc, d: Dialect): string {
  return doc.map((b) => renderBlock(b, d)).filter((s) => s !== '').join('\n\n');
}

export function renderInline(nodes: readonly Inline[], d: Dialect): string {
  return nodes.map((n): string => {
    switch (n.t) {
      case 'text': return d.escape(n.text);
      case 'bold': return d.bold(renderInline(n.children, d));
      case 'italic': return d.italic(renderInline(n.children, d));
      case 'code': return d.code(n.text);
      case 'br': return '\n';
      case 'image': return d.image(n.src, n.alt);
      case 'link': {
        // A label is plain text on every platform: formatting inside one is not rendered.
        const label = inlineText(n.children);
        return d.link(n.href, label === n.href ? '' : label);
      }
    }
  }).join('');
}

function renderBlock(b: Block, d: Dialect): string {
  switch (b.t) {
    case 'paragraph': return renderInline(b.children, d);
    case 'pre': return d.pre(b.text);
    case 'list': return b.items.map((item, i) => {
      const bullet = d.bullet(b.ordered, i + 1);
      const body = item.map((x) => renderBlock(x, d)).join('\n');
      // Continuation lines (a nested list, a second paragraph) are indented under the text.
      return bullet + body.split('\n').join(`\n${' '.repeat(bullet.length)}`);
    }).join('\n');
    case 'table': return d.tables === 'markdown' ? markdownTable(b.rows, b.header, d) : codeTable(b.rows, b.header, d);
  }
}

/** GFM table (https://github.github.com/gfm/#tables-extension-): the first row is its header. */
function markdownTable(rows: Inline[][][], _header: boolean, d: Dialect): string {
  const width = Math.max(...rows.map((r) => r.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const cell = (c: Inline[]) => renderInline(c, d).replace(/\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');
  const [head, ...body] = rows.map((r) => r.map(cell));
  return [line(head), line(Array.from({ length: width }, () => '---')), ...body.map(line)].join('\n');
}

/** Columns aligned in a code block, where the platform has no table. */
function codeTable(rows: Inline[][][], header: boolean, d: Dialect): string {
  const cells = rows.map((r) => r.map((c) => inlineText(c).replace(/\n/g, ' ')));
  const width = Math.max(...cells.map((r) => r.length));
  const widths = Array.from({ length: width }, (_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  // Columns two spaces apart: a "|" in a cell cannot be read as a column's edge.
  const line = (r: string[]) => widths.map((w, i) => (r[i] ?? '').padEnd(w)).join('  ').trimEnd();
  const lines = cells.map(line);
  if (header) lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return d.pre(lines.join('\n'));
}

/** A sender's name opening a line of a post that several senders share: `*Ada Lovelace*: `. */
export const lineLabel = (sender: string | null, d: Dialect): string => (sender ? `${d.bold(d.escape(sender))}: ` : '');

// ---- the dialects ----

/** Characters a URL may not carry inside a link's syntax, percent-encoded (still the same URL). */
const encodeUrl = (href: string, chars: RegExp) => href.replace(chars, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * Slack mrkdwn (https://api.slack.com/reference/surfaces/formatting): exactly `&`, `<` and
 * `>` are escaped ("#escaping"), links are `<url|text>` ("#linking-urls"), bold `*x*`,
 * italic `_x_`, code and ``` blocks ("#basic-formatting"). mrkdwn has no escape for `*` or
 * `_`, nor lists or tables: bullets are characters, tables aligned code.
 */
export const slackDialect: Dialect = {
  escape: (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  bold: (s) => (s === '' ? '' : `*${s}*`),
  italic: (s) => (s === '' ? '' : `_${s}_`),
  code: (s) => `\`${slackDialect.escape(s.replace(/`/g, 'ˋ'))}\``,
  pre: (s) => `\`\`\`\n${slackDialect.escape(s.replace(/```/g, '`ˋ`'))}\n\`\`\``,
  link: (href, label) => {
    const url = slackDialect.escape(encodeUrl(href, /[|\s]/g));
    return label === '' ? `<${url}>` : `<${url}|${slackDialect.escape(label.replace(/\s+/g, ' '))}>`;
  },
  image: (src, alt) => slackDialect.link(src, alt || 'image'),
  bullet: (ordered, n) => (ordered ? `${n}. ` : '• '),
  tables: 'code',
};

/**
 * CommonMark's backslash escapes (https://spec.commonmark.org/0.31.2/#backslash-escapes),
 * for the characters that would otherwise format: text reads as written. URLs are left
 * alone so that the platform still links them.
 */
export function escapeMarkdown(s: string): string {
  return s.split(/(\bhttps?:\/\/[^\s<>]+)/).map((chunk, i) => (i % 2 === 1 ? chunk : chunk
    .replace(/[\\`*_~[\]|<]/g, '\\$&')
    .replace(/(^|\n)([ \t]*)([#>+-])(?=\s)/g, '$1$2\\$3')
    .replace(/(^|\n)([ \t]*\d+)\.(?=\s)/g, '$1$2\\.'))).join('');
}

/**
 * Mattermost and Rocket.Chat notify a whole channel for @all, @channel and @here in a
 * webhook's text, and have no allowed_mentions as Discord does: a zero-width space after
 * the @ shows the same text and pings no one (Slack pings only for <!here>, which its
 * escaping already prevents).
 */
export const unpingMassMentions = (s: string): string => s.replace(/(^|[^\w@])@(all|channel|here|everyone)\b/gi, '$1@\u200b$2');

const fenceFor = (s: string) => ('`'.repeat(Math.max(3, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1))));

function markdownDialect(escape: (s: string) => string, o: { images: boolean; tables: Dialect['tables'] }): Dialect {
  const link = (href: string, label: string) => {
    const url = encodeUrl(href, /[\s()<>]/g);
    return label === '' ? url : `[${escape(label.replace(/\s+/g, ' '))}](${url})`;
  };
  return {
    escape,
    bold: (s) => (s === '' ? '' : `**${s}**`),
    italic: (s) => (s === '' ? '' : `_${s}_`),
    code: (s) => {
      const ticks = '`'.repeat(Math.max(1, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      return ticks.length > 1 ? `${ticks} ${s} ${ticks}` : `\`${s}\``;
    },
    pre: (s) => { const f = fenceFor(s); return `${f}\n${s}\n${f}`; },
    link,
    image: o.images ? (src, alt) => `![${escape(alt)}](${encodeUrl(src, /[\s()<>]/g)})` : (src, alt) => link(src, alt),
    bullet: (ordered, n) => (ordered ? `${n}. ` : '- '),
    tables: o.tables,
  };
}

/** Mattermost Markdown (https://docs.mattermost.com/collaborate/format-messages.html): CommonMark escapes, tables and inline images render. */
export const mattermostDialect: Dialect = markdownDialect((s) => unpingMassMentions(escapeMarkdown(s)), { images: true, tables: 'markdown' });

/**
 * Rocket.Chat's message parser (@rocket.chat/message-parser, its grammar.pegjs): `**x**`,
 * `_x_`, links, images, code and lists, but no tables and no backslash escapes (a
 * backslash shows as one): text goes as it is (mass mentions unpinged), tables as aligned code.
 */
export const rocketchatDialect: Dialect = markdownDialect(unpingMassMentions, { images: true, tables: 'code' });

/**
 * Discord Markdown (https://support.discord.com/hc/en-us/articles/210298617): backslash
 * escapes, masked links in webhook content, no tables, no inline images (an image is a link,
 * which Discord previews).
 */
export const discordDialect: Dialect = markdownDialect(escapeMarkdown, { images: false, tables: 'code' });

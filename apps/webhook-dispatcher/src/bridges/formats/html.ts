import { DomUtils, parseDocument } from 'htmlparser2';
import type { Block, Doc, Inline } from './types';

/**
 * HipChat messages into the platform-neutral Doc. html is parsed by htmlparser2 (the
 * parser sanitize-html uses), which decodes every entity once: `&amp;lt;` becomes the text
 * `&lt;`, never `<`. The formats escape what their platform needs when they render.
 */

type Node = ReturnType<typeof parseDocument>['children'][number];
type Element = Extract<Node, { attribs: Record<string, string> }>;

/** Elements that end the paragraph they are in; the others are read as inline. */
const BLOCKS = new Set(['p', 'div', 'blockquote', 'section', 'article', 'header', 'footer', 'center', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'ul', 'ol', 'pre', 'table', 'li', 'dl', 'dt', 'dd']);
/** Their content is not text people read. */
const SKIPPED = new Set(['script', 'style', 'head', 'title', 'template', 'noscript']);
/** Schemes a link keeps; any other (javascript:, data:, relative) shows as its text. */
const LINK_SCHEMES = /^(https?:|mailto:)/i;

export function htmlDoc(html: string): Doc {
  const dom = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  return blocksOf(dom.children);
}

/**
 * A `text` message: taken as written (an @mention, an emoticon like `(thumbsup)` and a link
 * stay text; the platforms link URLs themselves). A blank line starts a paragraph, a single
 * newline is a line break.
 */
export function textDoc(text: string): Doc {
  return text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\n+$/g, ''))
    .filter((p) => p.trim() !== '')
    .map((p): Block => ({
      t: 'paragraph',
      children: p.split('\n').flatMap((line, i): Inline[] => (i === 0 ? [text1(line)] : [{ t: 'br' }, text1(line)])).filter((n) => n.t !== 'text' || n.text !== ''),
    }));
}

const text1 = (text: string): Inline => ({ t: 'text', text });

/** The text of a Doc, as a notification's fallback or a platform's plain body shows it. */
export function plainText(doc: Doc): string {
  return doc.map(blockText).filter((s) => s !== '').join('\n\n');
}

function blockText(b: Block): string {
  switch (b.t) {
    case 'paragraph': return inlineText(b.children);
    case 'pre': return b.text;
    case 'list': return b.items.map((item, i) => `${b.ordered ? `${i + 1}.` : '-'} ${item.map(blockText).join('\n')}`).join('\n');
    case 'table': return b.rows.map((r) => r.map(inlineText).join(' | ')).join('\n');
  }
}

export function inlineText(nodes: readonly Inline[]): string {
  return nodes.map((n) => {
    switch (n.t) {
      case 'text': case 'code': return n.text;
      case 'bold': case 'italic': return inlineText(n.children);
      case 'link': {
        const label = inlineText(n.children);
        return label === '' || label === n.href ? n.href : `${label} (${n.href})`;
      }
      case 'image': return n.alt || n.src;
      case 'br': return '\n';
    }
  }).join('');
}

// ---- html walking ----

function blocksOf(nodes: readonly Node[]): Block[] {
  const out: Block[] = [];
  let inline: Inline[] = [];
  const flush = () => {
    const children = normalizeInline(inline);
    if (children.length > 0) out.push({ t: 'paragraph', children });
    inline = [];
  };
  for (const node of nodes) {
    if (DomUtils.isTag(node) && BLOCKS.has(node.name)) {
      flush();
      out.push(...blockOf(node));
    } else {
      inline.push(...inlineOf(node));
    }
  }
  flush();
  return out;
}

function blockOf(el: Element): Block[] {
  switch (el.name) {
    case 'hr': return [];
    case 'pre': {
      // As a browser does: the newline right after <pre> is not content.
      const text = DomUtils.textContent(el).replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\n+$/, '');
      return text === '' ? [] : [{ t: 'pre', text }];
    }
    case 'ul': case 'ol': {
      const items = listItems(el);
      return items.length === 0 ? [] : [{ t: 'list', ordered: el.name === 'ol', items }];
    }
    case 'table': {
      const table = tableOf(el);
      return table ? [table] : [];
    }
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': {
      const children = normalizeInline(el.children.flatMap(inlineOf));
      return children.length === 0 ? [] : [{ t: 'paragraph', children: [{ t: 'bold', children }] }];
    }
    default: return blocksOf(el.children);
  }
}

function listItems(list: Element): Block[][] {
  const items: Block[][] = [];
  let stray: Node[] = [];
  const flushStray = () => {
    // Text outside an <li> is still text the sender wrote: an item of its own.
    const blocks = blocksOf(stray);
    if (blocks.length > 0) items.push(blocks);
    stray = [];
  };
  for (const child of list.children) {
    if (DomUtils.isTag(child) && child.name === 'li') {
      flushStray();
      const blocks = blocksOf(child.children);
      if (blocks.length > 0) items.push(blocks);
    } else {
      stray.push(child);
    }
  }
  flushStray();
  return items;
}

function tableOf(table: Element): Block | null {
  const rows: Array<{ cells: Inline[][]; head: boolean }> = [];
  const visit = (el: Element, inHead: boolean) => {
    for (const child of el.children) {
      if (!DomUtils.isTag(child)) continue;
      if (child.name === 'tr') {
        const cellEls = child.children.filter((c): c is Element => DomUtils.isTag(c) && (c.name === 'td' || c.name === 'th'));
        if (cellEls.length === 0) continue;
        rows.push({ cells: cellEls.map(cellInline), head: inHead || cellEls.every((c) => c.name === 'th') });
      } else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
        visit(child, child.name === 'thead');
      }
    }
  };
  visit(table, false);
  if (rows.length === 0) return null;
  return { t: 'table', header: rows[0].head, rows: rows.map((r) => r.cells) };
}

/** A cell is one line of inline content: its paragraphs are joined by line breaks. */
function cellInline(cell: Element): Inline[] {
  const blocks = blocksOf(cell.children);
  const out: Inline[] = [];
  blocks.forEach((b, i) => {
    if (i > 0) out.push({ t: 'br' });
    if (b.t === 'paragraph') out.push(...b.children);
    else if (b.t === 'pre') out.push({ t: 'code', text: b.text });
    else out.push(text1(blockText(b)));
  });
  return out;
}

function inlineOf(node: Node): Inline[] {
  if (DomUtils.isText(node)) return [text1(node.data)];
  if (!DomUtils.isTag(node)) return [];
  const el = node;
  if (SKIPPED.has(el.name)) return [];
  const children = () => el.children.flatMap(inlineOf);
  switch (el.name) {
    case 'b': case 'strong': return [{ t: 'bold', children: children() }];
    case 'i': case 'em': return [{ t: 'italic', children: children() }];
    case 'code': case 'tt': case 'kbd': case 'samp': return [{ t: 'code', text: DomUtils.textContent(el) }];
    case 'br': return [{ t: 'br' }];
    case 'img': {
      const src = (el.attribs.src ?? '').trim();
      const alt = el.attribs.alt ?? el.attribs.title ?? '';
      if (LINK_SCHEMES.test(src)) return [{ t: 'image', src, alt }];
      return alt ? [text1(alt)] : [];
    }
    case 'a': {
      const href = (el.attribs.href ?? '').trim();
      return LINK_SCHEMES.test(href) ? [{ t: 'link', href, children: children() }] : children();
    }
    default:
      // Unknown or block-in-inline elements: their text is kept.
      if (BLOCKS.has(el.name)) return [{ t: 'br' }, ...children(), { t: 'br' }];
      return children();
  }
}

/**
 * White space as a browser shows inline text: runs collapse to one space, none at the start
 * or end of a line; empty formatting dropped. Code spans collapse too (white-space: normal).
 */
function normalizeInline(nodes: readonly Inline[]): Inline[] {
  let pendingSpace = false;
  let atLineStart = true;
  const walk = (list: readonly Inline[]): Inline[] => {
    const out: Inline[] = [];
    const pushText = (raw: string, make: (s: string) => Inline) => {
      const collapsed = raw.replace(/[ \t\n\r\f]+/g, ' ');
      let s = collapsed;
      if (s.startsWith(' ')) {
        if (!atLineStart) pendingSpace = true;
        s = s.slice(1);
      }
      if (s === '') return;
      const endsWithSpace = s.endsWith(' ');
      if (endsWithSpace) s = s.slice(0, -1);
      if (pendingSpace) {
        // The space goes before this content, outside any formatting that opens here.
        out.push({ t: 'text', text: ' ' });
        pendingSpace = false;
      }
      out.push(make(s));
      atLineStart = false;
      pendingSpace = endsWithSpace;
    };
    for (const n of list) {
      switch (n.t) {
        case 'text': pushText(n.text, text1); break;
        case 'code': pushText(n.text, (text) => ({ t: 'code', text })); break;
        case 'br': out.push(n); pendingSpace = false; atLineStart = true; break;
        case 'image':
          if (pendingSpace) { out.push(text1(' ')); pendingSpace = false; }
          out.push(n); atLineStart = false; break;
        case 'bold': case 'italic': case 'link': {
          const before = out.length;
          const children = walk(n.children);
          // A space the children began with was pushed by them; move it outside.
          if (children.length > 0 && children[0].t === 'text' && children[0].text === ' ') {
            children.shift();
            out.splice(before, 0, text1(' '));
          }
          // Line breaks at its edges (a <p> inside a <b>) go outside: `**\nx**` is no bold.
          const lead: Inline[] = [];
          const trail: Inline[] = [];
          while (children[0]?.t === 'br') lead.push(children.shift() as Inline);
          while (children[children.length - 1]?.t === 'br') trail.push(children.pop() as Inline);
          out.push(...lead);
          if (children.length > 0) out.push({ ...n, children } as Inline);
          else if (n.t === 'link') out.push({ ...n, children: [text1(n.href)] });
          out.push(...trail);
          break;
        }
      }
    }
    return out;
  };
  const result = mergeText(walk(nodes));
  // No line break at the end of a paragraph, nor a run of them at its start.
  while (result.length > 0 && result[result.length - 1].t === 'br') result.pop();
  while (result.length > 0 && result[0].t === 'br') result.shift();
  return result;
}

function mergeText(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes) {
    const last = out[out.length - 1];
    if (n.t === 'text' && last?.t === 'text') out[out.length - 1] = text1(last.text + n.text);
    else out.push(n.t === 'bold' || n.t === 'italic' || n.t === 'link' ? { ...n, children: mergeText(n.children) } : n);
  }
  return out;
}

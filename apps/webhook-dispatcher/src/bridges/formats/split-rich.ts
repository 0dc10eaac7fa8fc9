import type { Block, Inline } from './types';

/**
 * Cutting one over-long piece of rendered text for the Teams, Google Chat and Matrix
 * formats (the size a platform allows is measured by the caller: bytes of JSON, or
 * characters). Kept apart from the Markdown platforms' splitter until both are unified.
 *
 * The pieces, joined, give back the text exactly. A cut falls after a line break if one
 * fits, else after a space (or an ideographic full stop), and never inside a token the caller protects (a link in the
 * platform's syntax, a bare URL) nor between the halves of a surrogate pair; only a
 * token longer than the limit itself is cut through.
 */
export function splitText(text: string, fits: (piece: string) => boolean, protect: RegExp | null = null): string[] {
  if (fits(text)) return [text];
  const insideToken = new Uint8Array(text.length + 1);
  if (protect) {
    const re = new RegExp(protect.source, protect.flags.includes('g') ? protect.flags : `${protect.flags}g`);
    for (const m of text.matchAll(re)) {
      for (let i = m.index + 1; i < m.index + m[0].length; i++) insideToken[i] = 1;
    }
  }
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    if (fits(text.slice(start))) {
      pieces.push(text.slice(start));
      break;
    }
    // The longest prefix that fits (fits is monotone in the length of a prefix).
    let lo = start + 1;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(text.slice(start, mid))) lo = mid;
      else hi = mid - 1;
    }
    const end = cutPoint(text, start, lo, insideToken);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

function cutPoint(text: string, start: number, max: number, insideToken: Uint8Array): number {
  const allowed = (i: number) => insideToken[i] === 0 && !isLowSurrogate(text.charCodeAt(i));
  // A line, then a word; text without spaces (Chinese, Japanese) at least ends a sentence.
  for (const sep of ['\n', ' ', '\u3002']) {
    for (let i = max; i > start; i--) {
      if (text[i - 1] === sep && allowed(i)) return i;
    }
  }
  for (let i = max; i > start; i--) if (allowed(i)) return i;
  // One token longer than the limit: cut through it rather than lose it.
  return isLowSurrogate(text.charCodeAt(max)) && max - 1 > start ? max - 1 : max;
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** UTF-8 length of a value's JSON, as a platform counts a request body. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** "2.4 MB", as people read a file's size. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/**
 * Packs consecutive units into as few groups as fit, in order: a unit joins the current
 * group while the group still fits, else opens the next. A unit that fits nowhere alone
 * is the caller's bug (it splits units beforehand), so it gets a group of its own.
 */
export function pack<T>(units: readonly T[], fits: (group: readonly T[]) => boolean, mayJoin: (group: readonly T[], next: T) => boolean = () => true): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  for (const unit of units) {
    if (current.length > 0 && mayJoin(current, unit) && fits([...current, unit])) {
      current.push(unit);
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [unit];
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * Cuts one block that is too large for a post into consecutive blocks of the same kind
 * that each fit: a paragraph between its inlines (a long text run at a line or word
 * boundary, bold and italic runs keep their mark on every piece, a link stays whole), a
 * code block between lines, a list between items, a table between rows (the header row
 * repeated on every piece, so each piece reads alone).
 */
export function splitBlock(block: Block, fits: (b: Block) => boolean): Block[] {
  if (fits(block)) return [block];
  switch (block.t) {
    case 'paragraph': {
      const para = (children: Inline[]): Block => ({ t: 'paragraph', children });
      const inlineFits = (i: Inline) => fits(para([i]));
      const parts = block.children.flatMap((i) => splitInline(i, inlineFits));
      return pack(parts, (g) => fits(para([...g]))).map((g) => para(g));
    }
    case 'pre':
      return splitText(block.text, (text) => fits({ t: 'pre', text })).map((text) => ({ t: 'pre', text }));
    case 'list': {
      const list = (items: Block[][]): Block => ({ t: 'list', ordered: block.ordered, items });
      return pack(block.items, (g) => fits(list([...g]))).map((g) => list(g));
    }
    case 'table': {
      const head = block.header ? block.rows.slice(0, 1) : [];
      const body = block.header ? block.rows.slice(1) : block.rows;
      const table = (rows: Inline[][][]): Block => ({ t: 'table', header: block.header, rows: [...head, ...rows] });
      return pack(body, (g) => fits(table([...g]))).map((g) => table(g));
    }
  }
}

function splitInline(inline: Inline, fits: (i: Inline) => boolean): Inline[] {
  if (fits(inline)) return [inline];
  switch (inline.t) {
    case 'text':
      return splitText(inline.text, (text) => fits({ t: 'text', text }), /https?:\/\/\S+/).map((text) => ({ t: 'text', text }));
    case 'code':
      return splitText(inline.text, (text) => fits({ t: 'code', text })).map((text) => ({ t: 'code', text }));
    case 'bold':
    case 'italic': {
      const wrap = (children: Inline[]): Inline => ({ t: inline.t, children }) as Inline;
      const parts = inline.children.flatMap((c) => splitInline(c, (i) => fits(wrap([i]))));
      return pack(parts, (g) => fits(wrap([...g]))).map((g) => wrap(g));
    }
    default:
      return [inline];
  }
}

import { pack } from './pack';
import type { Block, Inline } from './types';

/**
 * The one way a message too long for a post is cut into consecutive posts (issue 35: "split
 * at a line or word boundary, never inside a link, an entity or a code block; the parts
 * joined give back the message", no "(1/6)" markers), for every format: `splitText` cuts
 * a rendered text (Markdown, mrkdwn) or a raw one (a paragraph's words, a code block's
 * lines); `splitBlock` cuts a parsed block (a table between rows, its header row repeated).
 *
 * What "joined give back the message" means, exactly: every part is `prefix + text +
 * suffix`, and the `text`s concatenated in order are the input, character for character.
 * `prefix` and `suffix` are empty except where a fenced code block or a table of a rendered
 * text had to be cut: the part before the cut closes a code block (`suffix` "```" after a
 * newline) and the part after reopens it (`prefix` "```lang\n"), so each post shows code as
 * code; a table's header row (a GFM table's header and delimiter lines, or the header and
 * rule lines of a table aligned in a code block) is repeated at the start of the next part,
 * so each post's rows read under their column names. The separator a
 * cut is made at (the newline, the space, the full stop) stays at the end of the earlier
 * part; platforms drop trailing white space when they show a post.
 *
 * Where: the last line boundary that leaves the part at least half full, else the last word
 * boundary that does, else the last sentence end of text without spaces (Chinese,
 * Japanese: 。！？) that does, else the last of any of these, else the last place outside
 * an atom (a link, an entity, an escape, inline code); an atom longer than the limit alone
 * is cut through rather than lost.
 *
 * The limit is a number of UTF-16 code units (JavaScript's `length`, never fewer than the
 * code points the platforms count, so a part within the limit here is within it there), or
 * the caller's own measure (`fits`: bytes of a post's JSON), which must hold for every
 * prefix of a piece that it holds for. A cut never falls between the halves of a surrogate pair.
 */
export interface Part {
  prefix: string;
  text: string;
  suffix: string;
}

export const partText = (p: Part): string => p.prefix + p.text + p.suffix;

/** A bare URL: the platforms link it only whole. */
export const URL_ATOM = /\bhttps?:\/\/[^\s<>]+/g;

/** Spans of a rendered text a cut must not fall strictly inside. */
export const MARKUP_ATOMS: readonly RegExp[] = [
  /!?\[[^\]\n]*\]\([^)\s]*\)/g, // a Markdown link or image [x](y)
  /<[^<>\n]{1,2000}>/g, // a Slack or Google Chat link or mention <url|text>, <!here>
  URL_ATOM,
  /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, // an entity (Slack's &amp; &lt; &gt;)
  /\\[^\s\\]/g, // a Markdown backslash escape
  /`[^`\n]+`/g, // an inline code span
];

export interface SplitOptions {
  /** Spans a cut must not fall inside; by default those of a rendered text (MARKUP_ATOMS). */
  atoms?: readonly RegExp[];
  /** Fenced code blocks are closed and reopened, and tables' header rows repeated, where cut: true for a rendered text, false for raw text or code. */
  fences?: boolean;
}

/** Options for text that is not markup: only a URL is kept whole. */
export const RAW_TEXT: SplitOptions = { atoms: [URL_ATOM], fences: false };
/** Options for the text of a code block: any character boundary will do, the lines first. */
export const RAW_CODE: SplitOptions = { atoms: [], fences: false };

/**
 * A span whose cut needs a prefix on the next part: a fenced code block (`fenced`: the part
 * before the cut closes it) or a table. No cut falls in (start, headEnd]: not inside the
 * fence's backticks or language word, nor between a table's header lines and its first row.
 */
interface Region { start: number; headEnd: number; contentStart: number; contentEnd: number; end: number; reopen: string; fenced: boolean }

const SENTENCE_ENDS = new Set(['\u3002', '\uff01', '\uff1f']);

export function splitText(text: string, limit: number | ((piece: string) => boolean), o: SplitOptions = {}): Part[] {
  const withFences = o.fences ?? true;
  if (typeof limit === 'number' && withFences && limit < 16) throw new RangeError('a limit below 16 characters cannot hold a reopened code block');
  const fits = typeof limit === 'number' ? (s: string) => s.length <= limit : limit;
  if (fits(text)) return [{ prefix: '', text, suffix: '' }];

  // A header repeated on every part may take a quarter of one at most, else only the block is reopened.
  const small = (head: string) => fits(head.repeat(4));
  const fences = withFences ? findFences(text, small) : [];
  const regions = [...fences, ...(withFences ? findTables(text, fences, small) : [])];
  const regionAt = (c: number): Region | null => regions.find((r) => c > r.contentStart && c < r.contentEnd) ?? null;
  const noCut = new Uint8Array(text.length + 1);
  const mark = (from: number, to: number) => { for (let i = from + 1; i < to; i++) noCut[i] = 1; };
  for (const r of regions) {
    // Never inside the backticks or the language word of a fence, nor at the edges of its
    // content (which would post an empty block); never between a table's header and its rows.
    mark(r.start, r.headEnd + 1);
    if (r.fenced) mark(r.contentEnd - 1, r.end);
  }
  for (const re of o.atoms ?? MARKUP_ATOMS) {
    for (const m of text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))) {
      const from = m.index ?? 0;
      const to = from + m[0].length;
      // Inside code only entities are atoms: Slack escapes them there too.
      const inCode = fences.some((f) => from >= f.contentStart && from < f.contentEnd);
      if (inCode && !m[0].startsWith('&')) continue;
      mark(from, to);
    }
  }
  for (let i = 1; i < text.length; i++) if (isLowSurrogate(text.charCodeAt(i))) noCut[i] = 1;

  const parts: Part[] = [];
  let start = 0;
  let prefix = '';
  while (start < text.length) {
    const suffixAt = (c: number): string => (regionAt(c)?.fenced ? (text[c - 1] === '\n' ? '```' : '\n```') : '');
    const fitsAt = (c: number) => fits(prefix + text.slice(start, c) + suffixAt(c));
    if (fits(prefix + text.slice(start))) {
      parts.push({ prefix, text: text.slice(start), suffix: '' });
      break;
    }
    const max = longestFit(start, text.length - 1, (c) => fits(prefix + text.slice(start, c)));
    const half = start + Math.floor((max - start) / 2);
    const pick = (ok: (c: number) => boolean, floor: number): number | null => {
      for (let c = max; c > floor; c--) if (!noCut[c] && ok(c) && fitsAt(c)) return c;
      return null;
    };
    const afterNewline = (c: number) => text[c - 1] === '\n';
    const afterSpace = (c: number) => text[c - 1] === ' ' || text[c - 1] === '\t';
    const afterSentence = (c: number) => SENTENCE_ENDS.has(text[c - 1]);
    const cut = pick(afterNewline, half) ?? pick(afterSpace, half) ?? pick(afterSentence, half)
      ?? pick(afterNewline, start) ?? pick(afterSpace, start) ?? pick(afterSentence, start)
      ?? pick(() => true, start)
      // Only an atom longer than the limit (a URL of 3,000 characters) leaves no allowed cut.
      ?? hardCut(text, start, max, fitsAt);
    const region = regionAt(cut);
    parts.push({ prefix, text: text.slice(start, cut), suffix: suffixAt(cut) });
    prefix = region ? region.reopen : '';
    start = cut;
  }
  return parts;
}

/** The largest end in (start, last] whose piece fits (fits holds for every shorter piece), at least start + 1. */
function longestFit(start: number, last: number, fits: (end: number) => boolean): number {
  let lo = start + 1;
  let hi = last;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function hardCut(text: string, start: number, max: number, fits: (c: number) => boolean): number {
  let c = max;
  while (c > start + 1 && (!fits(c) || isLowSurrogate(text.charCodeAt(c)))) c--;
  return c;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Fenced code blocks: ``` (with an optional language word and newline) to the next ```. A
 * block whose second line is a rule of dashes is a table aligned in code (render.ts,
 * codeTable): its first two lines are its header.
 */
function findFences(text: string, small: (head: string) => boolean): Region[] {
  const out: Region[] = [];
  const re = /```([A-Za-z0-9_+-]*\n)?/g;
  let open: { start: number; contentStart: number; lang: string } | null = null;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (!open) {
      open = { start: at, contentStart: at + m[0].length, lang: m[1] ? m[1].slice(0, -1) : '' };
    } else {
      if (at < open.contentStart) continue;
      const reopen = `\`\`\`${open.lang}\n`;
      const head = /^[^\n]*\n[-+| ]*---[-+| ]*\n/.exec(text.slice(open.contentStart, at))?.[0] ?? '';
      const withHead = head !== '' && small(reopen + head);
      out.push({
        start: open.start, headEnd: open.contentStart + (withHead ? head.length : 0), contentStart: open.contentStart, contentEnd: at, end: at + 3,
        reopen: withHead ? reopen + head : reopen, fenced: true,
      });
      open = null;
      // A closing fence's trailing word is text, not the next fence's language.
      re.lastIndex = at + 3;
    }
  }
  return out;
}

/** GFM tables outside code blocks (https://github.github.com/gfm/#tables-extension-): a header line, a delimiter line, rows. */
function findTables(text: string, fences: readonly Region[], small: (head: string) => boolean): Region[] {
  const out: Region[] = [];
  const row = /^\|.*\|[ \t]*$/;
  const delimiter = /^\|(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*$/;
  const lines: Array<{ from: number; to: number }> = [];
  for (let from = 0; from <= text.length;) {
    const nl = text.indexOf('\n', from);
    const to = nl === -1 ? text.length : nl;
    lines.push({ from, to });
    from = to + 1;
  }
  const line = (i: number) => text.slice(lines[i].from, lines[i].to);
  const inCode = (at: number) => fences.some((f) => at >= f.start && at < f.end);
  for (let i = 0; i + 2 < lines.length; i++) {
    if (inCode(lines[i].from) || !row.test(line(i)) || !delimiter.test(line(i + 1)) || !row.test(line(i + 2))) continue;
    let last = i + 2;
    while (last + 1 < lines.length && row.test(line(last + 1)) && !inCode(lines[last + 1].from)) last++;
    const head = text.slice(lines[i].from, lines[i + 2].from);
    if (small(head)) {
      out.push({ start: lines[i].from, headEnd: lines[i + 2].from, contentStart: lines[i + 2].from, contentEnd: lines[last].to, end: lines[last].to, reopen: head, fenced: false });
    }
    i = last;
  }
  return out;
}

/** Raw text cut as splitText cuts it, the pieces as strings (no fences to reopen in raw text). */
const rawPieces = (text: string, fits: (s: string) => boolean, o: SplitOptions): string[] => splitText(text, fits, o).map((p) => p.text);

/**
 * Cuts one parsed block that is too large for a post (the formats that render blocks
 * themselves: Teams, Google Chat, Matrix) into consecutive blocks of the same kind that
 * each fit: a paragraph between its inlines (a long text run as splitText cuts raw text,
 * bold and italic runs keep their mark on every piece, a link stays whole), a code block
 * between lines, a list between items, a table between rows (the header row repeated on
 * every piece, so each piece reads alone).
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
      return rawPieces(block.text, (text) => fits({ t: 'pre', text }), RAW_CODE).map((text) => ({ t: 'pre', text }));
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
      return rawPieces(inline.text, (text) => fits({ t: 'text', text }), RAW_TEXT).map((text) => ({ t: 'text', text }));
    case 'code':
      return rawPieces(inline.text, (text) => fits({ t: 'code', text }), RAW_CODE).map((text) => ({ t: 'code', text }));
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

/** UTF-8 length of a value's JSON, as a platform counts a request body. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');


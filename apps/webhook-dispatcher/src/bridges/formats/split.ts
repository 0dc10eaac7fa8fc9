/**
 * A rendered text cut into pieces that each fit a platform's limit, so that a long message
 * arrives whole as consecutive posts (issue 35: "split at a line or word boundary, never
 * inside a link, an entity or a code block; the parts joined give back the message").
 *
 * What "joined give back the message" means, exactly: every part is `prefix + text +
 * suffix`, and the `text`s concatenated in order are the input, character for character.
 * `prefix` and `suffix` are empty except where a fenced code block had to be cut: the part
 * before the cut closes it (`suffix` "```" after a newline) and the part after reopens it
 * (`prefix` "```lang\n"), so each post shows code as code. The separator a cut is made at
 * (the newline or the space) stays at the end of the earlier part; platforms drop trailing
 * white space when they show a post. No "(1/6)" markers are added.
 *
 * Where: the last line boundary that leaves the part at least half full, else the last word
 * boundary that does, else the last of either, else the last place outside an atom (a
 * link, an entity, an escape, inline code); an atom longer than the limit alone is cut.
 *
 * Lengths are counted in UTF-16 code units (JavaScript's `length`), never fewer than the
 * code points the platforms count, so a part within the limit here is within it there; a
 * cut never falls between the two halves of a surrogate pair.
 */
export interface Part {
  prefix: string;
  text: string;
  suffix: string;
}

export const partText = (p: Part): string => p.prefix + p.text + p.suffix;

interface Fence { start: number; contentStart: number; contentEnd: number; end: number; reopen: string }

/** Spans a cut must not fall strictly inside (links, entities, escapes, inline code). */
const ATOMS: readonly RegExp[] = [
  /!?\[[^\]\n]*\]\([^)\s]*\)/g, // a Markdown link or image [x](y)
  /<[^<>\n]{1,2000}>/g, // a Slack link or mention <url|text>, <!here>
  /\bhttps?:\/\/[^\s<>]+/g, // a bare URL: the platforms link it only whole
  /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, // an entity (Slack's &amp; &lt; &gt;)
  /\\[^\s\\]/g, // a Markdown backslash escape
  /`[^`\n]+`/g, // an inline code span
];

export function splitText(text: string, limit: number): Part[] {
  if (limit < 16) throw new RangeError('a limit below 16 characters cannot hold a reopened code block');
  if (text.length <= limit) return [{ prefix: '', text, suffix: '' }];

  const fences = findFences(text);
  const fenceAt = (c: number): Fence | null => fences.find((f) => c > f.contentStart && c < f.contentEnd) ?? null;
  const noCut = new Uint8Array(text.length + 1);
  const mark = (from: number, to: number) => { for (let i = from + 1; i < to; i++) noCut[i] = 1; };
  for (const f of fences) {
    // Never inside the backticks or the language word of a fence, nor at the edges of its
    // content (which would post an empty block).
    mark(f.start, f.contentStart + 1);
    mark(f.contentEnd - 1, f.end);
  }
  for (const re of ATOMS) {
    for (const m of text.matchAll(re)) {
      const from = m.index ?? 0;
      const to = from + m[0].length;
      // Inside code only entities are atoms: Slack escapes them there too.
      const inCode = fences.some((f) => from >= f.contentStart && from < f.contentEnd);
      if (inCode && !m[0].startsWith('&')) continue;
      mark(from, to);
    }
  }
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) noCut[i] = 1;
  }

  const parts: Part[] = [];
  let start = 0;
  let prefix = '';
  while (start < text.length) {
    const suffixAt = (c: number): string => (fenceAt(c) ? (text[c - 1] === '\n' ? '```' : '\n```') : '');
    const fits = (c: number) => prefix.length + (c - start) + suffixAt(c).length <= limit;
    if (prefix.length + text.length - start <= limit) {
      parts.push({ prefix, text: text.slice(start), suffix: '' });
      break;
    }
    const max = Math.min(text.length - 1, start + limit - prefix.length);
    const half = start + Math.floor((max - start) / 2);
    const pick = (ok: (c: number) => boolean, floor: number): number | null => {
      for (let c = max; c > floor; c--) if (!noCut[c] && fits(c) && ok(c)) return c;
      return null;
    };
    const afterNewline = (c: number) => text[c - 1] === '\n';
    const afterSpace = (c: number) => text[c - 1] === ' ' || text[c - 1] === '\t';
    const cut = pick(afterNewline, half) ?? pick(afterSpace, half) ?? pick(afterNewline, start) ?? pick(afterSpace, start)
      ?? pick(() => true, start)
      // Only an atom longer than the limit (a URL of 3,000 characters) leaves no allowed cut.
      ?? hardCut(text, start, max, fits);
    const fence = fenceAt(cut);
    parts.push({ prefix, text: text.slice(start, cut), suffix: suffixAt(cut) });
    prefix = fence ? fence.reopen : '';
    start = cut;
  }
  return parts;
}

function hardCut(text: string, start: number, max: number, fits: (c: number) => boolean): number {
  let c = max;
  while (c > start + 1 && (!fits(c) || isLowSurrogate(text.charCodeAt(c)))) c--;
  return c;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Fenced code blocks: ``` (with an optional language word and newline) to the next ```. */
function findFences(text: string): Fence[] {
  const out: Fence[] = [];
  const re = /```([A-Za-z0-9_+-]*\n)?/g;
  let open: { start: number; contentStart: number; lang: string } | null = null;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (!open) {
      open = { start: at, contentStart: at + m[0].length, lang: m[1] ? m[1].slice(0, -1) : '' };
    } else {
      if (at < open.contentStart) continue;
      out.push({ start: open.start, contentStart: open.contentStart, contentEnd: at, end: at + 3, reopen: `\`\`\`${open.lang}\n` });
      open = null;
      // A closing fence's trailing word is text, not the next fence's language.
      re.lastIndex = at + 3;
    }
  }
  return out;
}

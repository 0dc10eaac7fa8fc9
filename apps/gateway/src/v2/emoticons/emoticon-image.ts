/**
 * Generated images and HipChat v2 JSON shapes for emoticons. The service draws its own
 * images instead of shipping binaries, so each one is a tiny deterministic SVG.
 */
import { v2Links } from '@app/contracts';
import type { Emoticon } from './catalogue';

export const EMOTICON_SVG_CONTENT_TYPE = 'image/svg+xml; charset=utf-8';

export interface EmoticonLinks {
  readonly self: string;
}

export interface EmoticonPresentation {
  readonly id: number;
  readonly shortcut: string;
  readonly type: Emoticon['type'];
  readonly url: string;
  readonly width: number;
  readonly height: number;
  readonly links: EmoticonLinks;
}

/** Item shape of GET /v2/emoticon. */
export interface EmoticonListItem {
  readonly id: number;
  readonly links: EmoticonLinks;
  readonly shortcut: string;
  readonly url: string;
}

/** Shape of GET /v2/emoticon/{id_or_shortcut}. */
export interface EmoticonDetail extends EmoticonPresentation {
  readonly audio_path: string | null;
}

// Symbols read better than letters for these; everything else gets its first letters.
const GLYPHS: Readonly<Record<string, string>> = {
  heart: '\u2665',
  star: '\u2605',
  check: '\u2713',
  x: '\u2717',
  question: '?',
  sun: '\u2600',
  thumbsup: '+1',
  thumbsdown: '-1',
  shrug: '\u30c4',
  tableflip: '\u253b\u2501\u253b',
  coffee: '\u2615',
  rain: '\u2602',
};

/** Escapes text for XML content and attributes; non-ASCII goes out as character references. */
export function escapeXml(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r') continue; // not allowed in XML 1.0
    else if (code > 0x7e) out += `&#x${code.toString(16).toUpperCase()};`;
    else out += ch;
  }
  return out;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** Background and border colours, stable per shortcut; dark enough for white text. */
export function emoticonColours(shortcut: string): { fill: string; stroke: string } {
  const h = fnv1a(shortcut);
  const hue = h % 360;
  const sat = 0.55 + ((h >>> 9) % 20) / 100;
  const light = 0.36 + ((h >>> 17) % 10) / 100;
  return { fill: hslToHex(hue, sat, light), stroke: hslToHex(hue, sat, light - 0.15) };
}

function label(shortcut: string): string {
  const glyph = GLYPHS[shortcut];
  if (glyph !== undefined) return glyph;
  return shortcut.charAt(0).toUpperCase() + shortcut.slice(1, 2);
}

/** A self-contained SVG of the emoticon's width and height (rounded square plus label). */
export function emoticonSvg(e: Emoticon): string {
  const { width: w, height: h } = e;
  const { fill, stroke } = emoticonColours(e.shortcut);
  const text = label(e.shortcut);
  // Shrink long labels so they stay inside the box (roughly 0.6em per character).
  const fontSize = Math.max(6, Math.min(Math.round(h * 0.5), Math.floor((w - 4) / (0.6 * [...text].length))));
  const name = escapeXml(`(${e.shortcut})`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${name}">` +
    `<title>${name}</title>` +
    `<rect x="0.5" y="0.5" width="${w - 1}" height="${h - 1}" rx="6" ry="6" fill="${fill}" stroke="${stroke}"/>` +
    `<text x="${w / 2}" y="${h / 2}" dominant-baseline="central" text-anchor="middle" ` +
    `font-family="Helvetica, Arial, sans-serif" font-weight="bold" font-size="${fontSize}" fill="#ffffff">` +
    `${escapeXml(text)}</text></svg>`
  );
}

/** Path, relative to the service root, where the image is served. */
export function emoticonImagePath(e: Emoticon): string {
  return `/emoticons/${encodeURIComponent(e.shortcut)}.svg`;
}

export function emoticonPresentation(e: Emoticon, base: string): EmoticonPresentation {
  return {
    id: e.id,
    shortcut: e.shortcut,
    type: e.type,
    url: `${base}${emoticonImagePath(e)}`,
    width: e.width,
    height: e.height,
    links: { self: v2Links(base).emoticon(e.id) },
  };
}

export function emoticonListItem(e: Emoticon, baseUrl: string): EmoticonListItem {
  const { id, links, shortcut, url } = emoticonPresentation(e, baseUrl);
  return { id, links, shortcut, url };
}

export function emoticonDetail(e: Emoticon, baseUrl: string): EmoticonDetail {
  const p = emoticonPresentation(e, baseUrl);
  return {
    id: p.id,
    shortcut: p.shortcut,
    type: p.type,
    url: p.url,
    width: p.width,
    height: p.height,
    audio_path: e.audioPath ?? null,
    links: p.links,
  };
}

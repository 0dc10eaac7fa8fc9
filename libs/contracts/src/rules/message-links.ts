/** The link HipChat previews under a message: the last http(s) URL of its text. */
export interface MessageLink {
  type: 'image' | 'video' | 'link';
  url: string;
}

const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?'*]$/;
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
const IMAGE_PATH = /\.(png|jpe?g|gif|webp|svg|bmp)$/i;
const VIDEO_PATH = /\.(mp4|webm|mov)$/i;

const count = (s: string, ch: string): number => s.split(ch).length - 1;

/** Drops punctuation that ends the sentence rather than the URL; a balanced `)` is the URL's own. */
function trimTrailing(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.slice(-1);
    const opener = CLOSERS[last];
    if (TRAILING_PUNCTUATION.test(last) || (opener && count(url, opener) < count(url, last))) url = url.slice(0, -1);
    else return url;
  }
}

const isHost = (hostname: string, domain: string): boolean => hostname === domain || hostname.endsWith(`.${domain}`);

function linkType(url: URL): MessageLink['type'] {
  const host = url.hostname.toLowerCase();
  const path = url.pathname;
  if (isHost(host, 'youtube.com') && path === '/watch') return 'video';
  if (host === 'youtu.be' && path.length > 1) return 'video';
  if (isHost(host, 'vimeo.com') && /^\/\d+\/?$/.test(path)) return 'video';
  if (VIDEO_PATH.test(path)) return 'video';
  if (IMAGE_PATH.test(path)) return 'image';
  return 'link';
}

/** The last http(s) URL of a message and what it points at; null when there is none. */
export function extractMessageLink(text: string): MessageLink | null {
  const candidates = [...text.matchAll(URL_CANDIDATE)].map((m) => trimTrailing(m[0]));
  // A candidate that is no URL after trimming (`http://.`) is skipped for the one before it.
  for (let i = candidates.length - 1; i >= 0; i--) {
    let parsed: URL;
    try {
      parsed = new URL(candidates[i]);
    } catch {
      continue;
    }
    if (parsed.hostname === '') continue;
    return { type: linkType(parsed), url: candidates[i] };
  }
  return null;
}

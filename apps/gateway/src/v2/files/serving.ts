import { withoutAccents } from '@app/common';
import { sniffImageType } from './thumbnail';

/** Same for every served file: never sniffed into something else, never scripted. */
const ALWAYS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  // If a browser renders the file anyway, it gets no script, no plugin and no origin.
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
};

/** A public room's files may sit in shared caches this long: the room may become private (then checked at every request). */
export const PUBLIC_FILE_MAX_AGE_SECONDS = 300;
/** A signed link's file is kept by the browser at most this long, and never past the link's expiry. */
const SIGNED_FILE_MAX_AGE_SECONDS = 3600;

/**
 * Cache-Control of a served file. A public room's: shared caches may keep it a few minutes
 * (never `immutable`: the room may turn private). A private room's: the browser's alone;
 * asked with credentials, checked again at every use (access can be lost any time); by a
 * signed link, kept at most until the link expires.
 */
export function cacheControlFor(served: { privacy: 'public' } | { privacy: 'private'; expiresIn?: number }): string {
  if (served.privacy === 'public') return `public, max-age=${PUBLIC_FILE_MAX_AGE_SECONDS}`;
  if (served.expiresIn === undefined) return 'private, no-cache';
  return `private, max-age=${Math.max(0, Math.min(SIGNED_FILE_MAX_AGE_SECONDS, Math.floor(served.expiresIn)))}`;
}

/**
 * The headers a stored file is served with, but Cache-Control (cacheControlFor). Inline only for PNG, JPEG, GIF and WebP whose
 * bytes are what the type says: anything else, SVG and HTML above all, is a download, so an
 * upload can never run script on this origin. `fileName` is the name it was shared under.
 */
export function servingHeaders(fileName: string, contentType: string, data: Buffer): Record<string, string> {
  const isImage = sniffImageType(data) === contentType;
  return {
    ...ALWAYS,
    'Content-Type': contentType,
    'Content-Disposition': contentDisposition(isImage ? 'inline' : 'attachment', fileName),
  };
}

/**
 * RFC 6266: `filename*` (RFC 8187, UTF-8) carries the name as shared, and browsers prefer it;
 * `filename` is an ASCII stand-in for clients that read nothing else (curl -OJ among them).
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  return `${type}; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${encodeExtValue(fileName)}`;
}

/**
 * Accents dropped ("résumé" -> "resume"), anything else outside printable ASCII and the few
 * that are unsafe or meaningful in a header or a path (`"` `\` `/` `%` `;` ...) made `_`:
 * nothing to escape in the quoted string, and no %-sequence a client might decode.
 */
function asciiFileName(fileName: string): string {
  const name = withoutAccents(fileName)
    .replace(/[^A-Za-z0-9 !#$&'()+,.=@[\]^_`{}~-]/gu, '_')
    .trim();
  return name || 'file';
}

/** RFC 8187 value-chars: attr-char as is, every other UTF-8 byte as %XX (a lone surrogate as U+FFFD). */
function encodeExtValue(fileName: string): string {
  let out = '';
  for (const byte of Buffer.from(fileName, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const ATTR_CHAR = /^[A-Za-z0-9!#$&+.^_`|~-]$/;

/**
 * The content type a file is stored (and served) with: what its bytes are when they are an
 * image we know, else what the client said; a claim too long to be a media type is dropped.
 */
export function storedContentType(declared: string, data: Buffer): string {
  return sniffImageType(data) ?? (declared.length <= 255 ? declared : 'application/octet-stream');
}

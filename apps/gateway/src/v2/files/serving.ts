import { sniffImageType } from './thumbnail';

/** Same for every served file: never sniffed into something else, never scripted, cached for good (keys are never reused). */
const ALWAYS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  // If a browser renders the file anyway, it gets no script, no plugin and no origin.
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
  'Cache-Control': 'public, max-age=31536000, immutable',
};

/**
 * The headers a stored file is served with. Inline only for PNG, JPEG, GIF and WebP whose
 * bytes are what the type says: anything else, SVG and HTML above all, is a download, so an
 * upload can never run script on this origin. The file name is the key's last segment,
 * which storageKeyFor made ASCII-safe (no quote or backslash to escape).
 */
export function servingHeaders(key: string, contentType: string, data: Buffer): Record<string, string> {
  const isImage = sniffImageType(data) === contentType;
  const name = key.slice(key.lastIndexOf('/') + 1);
  return {
    ...ALWAYS,
    'Content-Type': contentType,
    'Content-Disposition': `${isImage ? 'inline' : 'attachment'}; filename="${name}"`,
  };
}

/**
 * The content type a file is stored (and served) with: what its bytes are when they are an
 * image we know, else what the client said; a claim too long to be a media type is dropped.
 */
export function storedContentType(declared: string, data: Buffer): string {
  return sniffImageType(data) ?? (declared.length <= 255 ? declared : 'application/octet-stream');
}

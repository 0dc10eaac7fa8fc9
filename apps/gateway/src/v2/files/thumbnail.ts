import sharp from 'sharp';

export type SniffedImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface Thumbnail {
  data: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

export const THUMBNAIL_BOX = 200;
/** Refuse to decode anything larger (checked from the header, before decoding): a small file can claim huge dimensions. */
export const THUMBNAIL_MAX_INPUT_PIXELS = 40_000_000;
const THUMBNAIL_TIMEOUT_SECONDS = 10;

/** sharp's format names for the types we thumbnail; the sniffed type and sharp's reading must agree. */
const SHARP_FORMAT: Record<SniffedImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The image type by magic bytes, or null; the client's Content-Type is not trusted. */
export function sniffImageType(data: Buffer): SniffedImageType | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 6) {
    const sig = data.toString('latin1', 0, 6);
    if (sig === 'GIF87a' || sig === 'GIF89a') return 'image/gif';
  }
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * A thumbnail fitting 200x200 (aspect kept, never enlarged), or null when `data` is not a
 * PNG, JPEG, GIF or WebP that decodes cleanly. Never throws: a missing preview must not fail
 * the share. `contentType` is the client's claim and is deliberately not used to decide:
 * the bytes are sniffed, so other formats sharp could read (SVG, TIFF, HEIF...) never reach it.
 */
export async function makeThumbnail(data: Buffer, contentType?: string): Promise<Thumbnail | null> {
  void contentType;
  const type = sniffImageType(data);
  if (!type) return null;
  try {
    const input = sharp(data, {
      limitInputPixels: THUMBNAIL_MAX_INPUT_PIXELS,
      // sharp's advice for untrusted input: abort on any decoder warning, not only on errors.
      failOn: 'warning',
      // First frame only: animated GIF/WebP would multiply the pixels decoded.
      animated: false,
      pages: 1,
      autoOrient: true,
    });
    const meta = await input.metadata();
    if (meta.format !== SHARP_FORMAT[type]) return null;
    // Keep transparency as PNG; opaque photos are far smaller as JPEG.
    const asPng = type !== 'image/jpeg' && (type !== 'image/webp' || meta.hasAlpha === true);
    const resized = input
      .timeout({ seconds: THUMBNAIL_TIMEOUT_SECONDS })
      .resize(THUMBNAIL_BOX, THUMBNAIL_BOX, { fit: 'inside', withoutEnlargement: true });
    const { data: out, info } = await (asPng ? resized.png() : resized.jpeg({ quality: 80, mozjpeg: true }))
      .toBuffer({ resolveWithObject: true });
    return { data: out, contentType: asPng ? 'image/png' : 'image/jpeg', width: info.width, height: info.height };
  } catch {
    // Undecodable, truncated, over the pixel limit or too slow: no thumbnail.
    return null;
  }
}

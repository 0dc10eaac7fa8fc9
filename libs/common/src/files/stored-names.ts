import { assertValidKey, thumbnailName } from './file-storage';

/** A shared file as the rooms service keeps it (`messages.file`, the File object of room_file_upload). */
export interface SharedFileRecord {
  name: string;
  url: string;
  thumb_url?: string;
}

/** A storage key and the name its file downloads under. */
export interface StoredName {
  key: string;
  fileName: string;
}

/**
 * The storage keys a shared file's URLs point at, each with the name it was stored under by
 * ShareFile: the file's own name, and for its thumbnail thumbnailName's, in the format the
 * thumbnail key's extension names. A URL that names no key of ours gives nothing.
 */
export function storedNamesOf(file: SharedFileRecord): StoredName[] {
  if (typeof file?.name !== 'string' || file.name === '') return [];
  const names: StoredName[] = [];
  const key = keyOfFileUrl(file.url);
  if (key) names.push({ key, fileName: file.name });
  const thumbKey = keyOfFileUrl(file.thumb_url);
  if (thumbKey) names.push({ key: thumbKey, fileName: thumbnailName(file.name, thumbKey.endsWith('.png') ? 'image/png' : 'image/jpeg') });
  return names;
}

/**
 * The key of a file URL, `<PUBLIC_BASE_URL>/files/<key>`, whatever the base was when it was
 * shared (a host or a path since changed): the path's last three segments, as storageKeyFor
 * makes them (`ab/abcd.../name`), after `files`. Null for any other URL.
 */
export function keyOfFileUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/');
  } catch {
    return null;
  }
  if (segments.length < 5 || segments[segments.length - 4] !== 'files') return null;
  const [prefix, id, name] = segments.slice(-3);
  if (prefix.length !== 2 || !id.startsWith(prefix)) return null;
  const key = `${prefix}/${id}/${name}`;
  try {
    assertValidKey(key);
  } catch {
    return null;
  }
  return key;
}

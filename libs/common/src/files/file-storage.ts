import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Where shared files and their thumbnails live. Keys come from `storageKeyFor`, never from clients.
 * The gateway writes and serves them; `cli file restore-names` (rooms) names the old ones.
 */
export interface FileStorage {
  /**
   * Stores `data` under `key`, replacing any previous object; readers see the old or the new object, never a part.
   * `fileName` is the name it downloads as, kept as given: the key only holds an ASCII stand-in.
   */
  put(key: string, data: Buffer, contentType: string, fileName?: string): Promise<void>;
  /** The object under `key`, or null when there is none; no `fileName` when it was stored without one. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the object under `key`; no error when there is none (cleanup after a failed share). */
  delete(key: string): Promise<void>;
}

export interface StoredFile {
  data: Buffer;
  contentType: string;
  fileName?: string;
}

const KEY_CHARS = /^[a-zA-Z0-9/_.-]+$/;
const KEY_MAX = 1024;
/** The sidecar holding the content type and file name; keys ending in it are refused so they cannot collide. */
const META_SUFFIX = '.meta.json';

/** Throws unless `key` is a relative path of safe segments (no traversal, no hidden or reserved names). */
export function assertValidKey(key: string): void {
  const problem =
    typeof key !== 'string' || key.length === 0 ? 'is empty'
      : key.length > KEY_MAX ? `is longer than ${KEY_MAX} characters`
        : !KEY_CHARS.test(key) ? 'may only contain letters, digits and / _ . -'
          : key.includes('..') ? 'may not contain ".."'
            // Leading '.' also keeps keys apart from our temp files, which start with '.'.
            : key.split('/').some((seg) => seg === '' || seg.startsWith('.')) ? 'has an empty or hidden path segment'
              : key.endsWith(META_SUFFIX) ? `may not end with "${META_SUFFIX}"`
                : null;
  if (problem) throw new Error(`invalid storage key ${JSON.stringify(String(key)).slice(0, 120)}: ${problem}`);
}

/**
 * Files under one directory: `<root>/<key>` holds the bytes, `<root>/<key>.meta.json` the
 * content type and file name. Each is written to a temp file in the same directory and
 * renamed into place, so the swap is atomic. The sidecar is renamed last: it is the commit
 * marker, and `get` treats bytes without a sidecar as absent (a put in progress, or one that
 * crashed).
 */
export class LocalDirectoryStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async put(key: string, data: Buffer, contentType: string, fileName?: string): Promise<void> {
    const target = this.pathFor(key);
    const dir = path.dirname(target);
    // Creates the root too, when missing.
    await fs.mkdir(dir, { recursive: true });
    const meta = Buffer.from(JSON.stringify({ contentType, fileName }));
    const dataTmp = await writeTemp(dir, path.basename(target), data);
    let metaTmp: string | undefined;
    try {
      metaTmp = await writeTemp(dir, path.basename(target) + META_SUFFIX, meta);
      await fs.rename(dataTmp, target);
      await fs.rename(metaTmp, target + META_SUFFIX);
    } catch (err) {
      await Promise.all([dataTmp, metaTmp].map((p) => (p ? fs.rm(p, { force: true }) : undefined)));
      throw err;
    }
    await fsyncDir(dir);
  }

  async get(key: string): Promise<StoredFile | null> {
    const target = this.pathFor(key);
    const meta = await readIfExists(target + META_SUFFIX);
    if (!meta) return null;
    const data = await readIfExists(target);
    if (!data) return null;
    const parsed = parseMeta(meta);
    const contentType = typeof parsed.contentType === 'string' ? parsed.contentType : 'application/octet-stream';
    // Sidecars written before names were kept have none.
    return { data, contentType, ...(hasName(parsed) ? { fileName: parsed.fileName } : {}) };
  }

  /**
   * Gives a file stored without a name (its sidecar written before names were kept) the name
   * it was shared under; a file that has a name keeps it, so running this again changes
   * nothing. Only the sidecar is rewritten, as put writes it (a temp file renamed over it):
   * a reader sees the old sidecar or the new one. 'absent': nothing is stored under `key`.
   */
  async nameIfUnnamed(key: string, fileName: string): Promise<'named' | 'kept' | 'absent'> {
    if (!fileName) throw new Error('a file name may not be empty');
    const target = this.pathFor(key);
    const meta = await readIfExists(target + META_SUFFIX);
    if (!meta || !(await exists(target))) return 'absent';
    const parsed = parseMeta(meta);
    if (hasName(parsed)) return 'kept';
    const dir = path.dirname(target);
    const tmp = await writeTemp(dir, path.basename(target) + META_SUFFIX, Buffer.from(JSON.stringify({ ...parsed, fileName })));
    try {
      await fs.rename(tmp, target + META_SUFFIX);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    await fsyncDir(dir);
    return 'named';
  }

  async delete(key: string): Promise<void> {
    const target = this.pathFor(key);
    // Sidecar first: the object disappears for readers before its bytes do.
    await fs.rm(target + META_SUFFIX, { force: true });
    await fs.rm(target, { force: true });
  }

  private pathFor(key: string): string {
    assertValidKey(key);
    const target = path.resolve(this.root, key);
    // Belt and braces: the key rules already forbid leaving the root.
    if (!target.startsWith(this.root + path.sep)) throw new Error('invalid storage key: escapes the storage root');
    return target;
  }
}

async function writeTemp(dir: string, base: string, data: Buffer): Promise<string> {
  const tmp = path.join(dir, `.${base}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': never follow or reuse an existing file under the temp name.
  const handle = await fs.open(tmp, 'wx');
  try {
    await handle.writeFile(data);
    // Durable before it becomes visible, so a crash cannot leave a renamed but empty file.
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  return tmp;
}

async function fsyncDir(dir: string): Promise<void> {
  // Persists the renames; best effort, as some filesystems refuse fsync on directories.
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* not fatal: the data files themselves are synced */
  }
}

interface Meta {
  contentType?: unknown;
  fileName?: unknown;
}

const parseMeta = (meta: Buffer): Meta => JSON.parse(meta.toString('utf8')) as Meta;
const hasName = (meta: Meta): meta is Meta & { fileName: string } => typeof meta.fileName === 'string' && meta.fileName !== '';

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw err;
  }
}

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

const ID_CHARS = /^[a-zA-Z0-9_-]{2,128}$/;
const NAME_MAX = 100;

/** `<first 2 chars of id>/<id>/<sanitized name>`; the prefix spreads files over directories. */
export function storageKeyFor(fileId: string, fileName: string): string {
  if (!ID_CHARS.test(fileId)) throw new Error(`invalid file id ${JSON.stringify(String(fileId)).slice(0, 140)}`);
  const key = `${fileId.slice(0, 2)}/${fileId}/${sanitizeFileName(fileName)}`;
  assertValidKey(key);
  return key;
}

/** Accented letters as their base letter ("résumé" -> "resume"), so that an ASCII stand-in keeps them instead of '_'. */
export const withoutAccents = (name: string): string => name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** `photo.jpeg` -> `photo.png` (or `.jpg`): the name of a file's thumbnail, in the thumbnail's own format. */
export function thumbnailName(name: string, thumbnailType: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return `${stem}.${thumbnailType === 'image/png' ? 'png' : 'jpg'}`;
}

/** A file name safe as one key segment: letters, digits and `.-_`, at most 100 characters, never empty. */
export function sanitizeFileName(fileName: string): string {
  let name = withoutAccents(String(fileName ?? ''));
  name = Array.from(name, (ch) => (/^[a-zA-Z0-9._-]$/.test(ch) ? ch : '_')).join('');
  if (name.length > NAME_MAX) {
    // Keep a short extension: it is what tells a download what the file is.
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, NAME_MAX - ext.length) + ext;
  }
  // The key rules forbid "..", a leading '.', and the sidecar suffix; these fixes never lengthen.
  name = name.replace(/\.{2,}/g, '.').replace(/^\./, '_');
  if (name.endsWith(META_SUFFIX)) name = name.slice(0, -1) + '_';
  return name || 'file';
}

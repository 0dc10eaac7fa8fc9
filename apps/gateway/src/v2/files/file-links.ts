import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Expiring links to stored files: `<base>/files/<key>?expires=<UNIX seconds>&signature=<sig>`,
 * the signature an HMAC-SHA256 (base64url) over the path and the expiry, so that neither can
 * be changed. What a private room's file is fetched with, without credentials, until then.
 */
export class FileLinks {
  constructor(private readonly secret: Buffer) {}

  /** `?expires=...&signature=...` for `key` (a storage key) until `expiresAt` (UNIX seconds). */
  query(key: string, expiresAt: number): string {
    return `expires=${expiresAt}&signature=${this.signature(key, expiresAt)}`;
  }

  /**
   * 'valid' when `signature` is the one of `key` and `expires` and that instant is after
   * `nowSeconds`; 'expired' when it is the one but has passed; 'invalid' otherwise (missing,
   * changed, or of another key).
   */
  check(key: string, expires: unknown, signature: unknown, nowSeconds: number): 'valid' | 'expired' | 'invalid' {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
    const expected = Buffer.from(this.signature(key, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) > nowSeconds ? 'valid' : 'expired';
  }

  private signature(key: string, expiresAt: number): string {
    // The path as served, and a separator no key holds: `a` + `1` never signs as `a1`.
    return createHmac('sha256', this.secret).update(`/files/${key}\n${expiresAt}`).digest('base64url');
  }
}

/** Where a generated key is kept: a hidden name, which no storage key may have (never served). */
export const GENERATED_KEY_FILE = '.link-key';

/**
 * The signing key: FILE_LINK_SECRET when set; else the one kept in the storage directory,
 * made by the first gateway to start (created exclusively, so concurrent starts agree: the
 * loser reads the winner's). Every replica shares that directory, so every one signs alike.
 */
export async function loadFileLinkKey(configured: string | undefined, storageDir: string): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(path.resolve(storageDir), GENERATED_KEY_FILE);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const fresh = randomBytes(32).toString('base64url');
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(tmp, fresh, { flag: 'wx', mode: 0o600 });
  try {
    // link() fails when the key exists: the first one stays, whole (it was written before it appeared).
    await fs.link(tmp, file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  } finally {
    await fs.rm(tmp, { force: true });
  }
  const key = (await fs.readFile(file, 'utf8')).trim();
  if (key.length < 32) throw new Error(`${file}: the file link key is shorter than 32 characters; delete it to have a new one made, or set FILE_LINK_SECRET`);
  return Buffer.from(key, 'utf8');
}

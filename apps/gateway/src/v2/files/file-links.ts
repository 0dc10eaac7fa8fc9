import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Expiring links to stored files: `<base>/files/<key>?expires=<UNIX seconds>&issued=<UNIX seconds>&signature=<sig>`,
 * the signature an HMAC-SHA256 (base64url) over the path, the expiry and the issue time, so
 * that none can be changed. What a private room's file is fetched with, without credentials,
 * until then, unless access to the room changed after it was issued (its room's revocation
 * time, judged by decideServing). Links made before issue times were signed over the path and
 * the expiry alone: still recognised, with no issue time (which counts as revoked).
 */
export class FileLinks {
  constructor(private readonly secret: Buffer) {}

  /** `?expires=...&issued=...&signature=...` for `key` (a storage key) until `expiresAt`, issued at `issuedAt` (UNIX seconds). */
  query(key: string, expiresAt: number, issuedAt: number): string {
    return `expires=${expiresAt}&issued=${issuedAt}&signature=${this.signature(key, expiresAt, issuedAt)}`;
  }

  /**
   * 'valid' when `signature` is the one of `key`, `expires` and `issued` and that expiry is
   * after `nowSeconds`; 'expired' when it is the one but has passed; 'invalid' otherwise
   * (missing, changed, or of another key). `issuedAt`: when a link that is ours was issued,
   * null for one made before issue times (no `issued`).
   */
  check(key: string, expires: unknown, issued: unknown, signature: unknown, nowSeconds: number): LinkCheckResult {
    const invalid = { state: 'invalid' as const, issuedAt: null };
    if (!isSeconds(expires) || typeof signature !== 'string') return invalid;
    if (issued !== undefined && !isSeconds(issued)) return invalid;
    const issuedAt = issued === undefined ? null : Number(issued);
    const expected = Buffer.from(this.signature(key, Number(expires), issuedAt));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
    return { state: Number(expires) > nowSeconds ? 'valid' : 'expired', issuedAt };
  }

  private signature(key: string, expiresAt: number, issuedAt: number | null): string {
    // The path as served, and a separator no key holds: `a` + `1` never signs as `a1`.
    // Without an issue time: how links were signed before they had one.
    const signed = issuedAt === null ? `/files/${key}\n${expiresAt}` : `/files/${key}\n${expiresAt}\n${issuedAt}`;
    return createHmac('sha256', this.secret).update(signed).digest('base64url');
  }
}

/** What FileLinks.check found: the link's state, and when it was issued (null: not ours, or made before issue times). */
export interface LinkCheckResult {
  state: 'valid' | 'expired' | 'invalid';
  issuedAt: number | null;
}

const isSeconds = (v: unknown): v is string => typeof v === 'string' && /^\d{1,12}$/.test(v);

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

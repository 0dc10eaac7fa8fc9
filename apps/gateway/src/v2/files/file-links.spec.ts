import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLinks, GENERATED_KEY_FILE, loadFileLinkKey } from './file-links';

describe('FileLinks', () => {
  const links = new FileLinks(Buffer.from('k'.repeat(32)));
  const key = 'ab/abcdef/report.pdf';
  const parse = (query: string) => Object.fromEntries(new URLSearchParams(query));

  it('signs a key until an instant with its issue time, and takes its own signature until then', () => {
    const q = parse(links.query(key, 2_000, 1_000));
    expect(q.expires).toBe('2000');
    expect(q.issued).toBe('1000');
    expect(links.check(key, q.expires, q.issued, q.signature, 1_999)).toEqual({ state: 'valid', issuedAt: 1_000 });
    expect(links.check(key, q.expires, q.issued, q.signature, 2_000)).toEqual({ state: 'expired', issuedAt: 1_000 });
  });

  it('refuses a changed expiry or issue time, another key, another secret, a missing or altered signature', () => {
    const q = parse(links.query(key, 2_000, 1_000));
    const invalid = { state: 'invalid', issuedAt: null };
    expect(links.check(key, '2001', q.issued, q.signature, 0)).toEqual(invalid);
    // A later issue time would outlive the room's revocation: it is signed too.
    expect(links.check(key, q.expires, '1001', q.signature, 0)).toEqual(invalid);
    expect(links.check(key, q.expires, undefined, q.signature, 0)).toEqual(invalid);
    expect(links.check(key, q.expires, ['1000'], q.signature, 0)).toEqual(invalid);
    expect(links.check(key, q.expires, '', q.signature, 0)).toEqual(invalid);
    expect(links.check('ab/abcdef/other.pdf', q.expires, q.issued, q.signature, 0)).toEqual(invalid);
    expect(new FileLinks(Buffer.from('x'.repeat(32))).check(key, q.expires, q.issued, q.signature, 0)).toEqual(invalid);
    expect(links.check(key, q.expires, q.issued, undefined, 0)).toEqual(invalid);
    expect(links.check(key, q.expires, q.issued, `${q.signature.slice(0, -1)}${q.signature.endsWith('A') ? 'B' : 'A'}`, 0)).toEqual(invalid);
    expect(links.check(key, ['2000'], q.issued, q.signature, 0)).toEqual(invalid);
    expect(links.check(key, '-1', q.issued, q.signature, 0)).toEqual(invalid);
  });

  it('recognises a link made before issue times (signed over the path and expiry alone), with no issue time', () => {
    const legacy = createHmac('sha256', Buffer.from('k'.repeat(32))).update(`/files/${key}\n2000`).digest('base64url');
    expect(links.check(key, '2000', undefined, legacy, 0)).toEqual({ state: 'valid', issuedAt: null });
    // Given an issue time it is not its signature.
    expect(links.check(key, '2000', '1000', legacy, 0)).toEqual({ state: 'invalid', issuedAt: null });
  });
});

describe('loadFileLinkKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-link-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes FILE_LINK_SECRET when set, and writes nothing', async () => {
    expect((await loadFileLinkKey('s'.repeat(40), join(dir, 'files'))).toString()).toBe('s'.repeat(40));
  });

  it('otherwise makes one key in the storage directory, which every later start (every replica) reads back', async () => {
    const root = join(dir, 'files');
    const keys = await Promise.all([1, 2, 3].map(() => loadFileLinkKey(undefined, root)));
    expect(keys[0].length).toBeGreaterThanOrEqual(32);
    expect(keys.every((k) => k.equals(keys[0]))).toBe(true);
    expect((await loadFileLinkKey(undefined, root)).equals(keys[0])).toBe(true);
    expect(readFileSync(join(root, GENERATED_KEY_FILE), 'utf8')).toBe(keys[0].toString());
  });
});

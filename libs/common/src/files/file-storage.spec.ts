// The module object itself (not an import-star copy), so spies reach the code under test.
import fsp = require('node:fs/promises');
import * as os from 'node:os';
import * as path from 'node:path';
import { assertValidKey, LocalDirectoryStorage, sanitizeFileName, storageKeyFor } from './file-storage';

async function listAll(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe('LocalDirectoryStorage', () => {
  let tmp: string;
  let root: string;
  let storage: LocalDirectoryStorage;

  beforeEach(async () => {
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'file-storage-'));
    root = path.join(tmp, 'not', 'yet', 'there');
    storage = new LocalDirectoryStorage(root);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  it('round-trips bytes and content type, creating the root when missing', async () => {
    const data = Buffer.from([0, 1, 2, 255, 254]);
    await storage.put('ab/abcdef/photo.png', data, 'image/png');
    expect(await storage.get('ab/abcdef/photo.png')).toEqual({ data, contentType: 'image/png' });
    expect(await listAll(root)).toEqual(['ab/abcdef/photo.png', 'ab/abcdef/photo.png.meta.json']);
  });

  it('answers null for a missing key, also before the root exists', async () => {
    expect(await storage.get('ab/none/x.txt')).toBeNull();
    await storage.put('ab/one/x.txt', Buffer.from('x'), 'text/plain');
    expect(await storage.get('ab/none/x.txt')).toBeNull();
    // A path below a file is not an object either.
    expect(await storage.get('ab/one/x.txt/y')).toBeNull();
  });

  it('replaces an existing object', async () => {
    await storage.put('k/v', Buffer.from('old'), 'text/plain');
    await storage.put('k/v', Buffer.from('new!'), 'application/octet-stream');
    expect(await storage.get('k/v')).toEqual({ data: Buffer.from('new!'), contentType: 'application/octet-stream' });
  });

  it('deletes, and deleting a missing key is fine', async () => {
    await storage.put('k/v', Buffer.from('x'), 'text/plain');
    await storage.delete('k/v');
    await storage.delete('k/v');
    expect(await storage.get('k/v')).toBeNull();
    expect(await listAll(root)).toEqual([]);
  });

  it.each([
    '../escape',
    'a/../../escape',
    '..',
    'a/..b',
    '/etc/passwd',
    'a//b',
    'a/b/',
    'a/.hidden',
    '.',
    'a\\b',
    'a b',
    'a/%2e%2e/b',
    'ü',
    '',
    'x/file.meta.json',
  ])('refuses the key %j', async (key) => {
    expect(() => assertValidKey(key)).toThrow(/invalid storage key/);
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
    await expect(storage.get(key)).rejects.toThrow(/invalid storage key/);
    await expect(storage.delete(key)).rejects.toThrow(/invalid storage key/);
    await expect(fsp.access(path.join(tmp, 'escape'))).rejects.toThrow();
  });

  it('refuses keys longer than 1024 characters', () => {
    expect(() => assertValidKey('x'.repeat(1025))).toThrow(/longer than 1024/);
    expect(() => assertValidKey('x'.repeat(1024))).not.toThrow();
  });

  it('writes atomically: a failed put leaves the previous object and no temp files', async () => {
    await storage.put('k/v', Buffer.from('old'), 'text/plain');
    jest.spyOn(fsp, 'rename').mockRejectedValueOnce(Object.assign(new Error('disk gone'), { code: 'EIO' }));
    await expect(storage.put('k/v', Buffer.from('new'), 'text/html')).rejects.toThrow('disk gone');
    expect(await storage.get('k/v')).toEqual({ data: Buffer.from('old'), contentType: 'text/plain' });
    expect(await listAll(root)).toEqual(['k/v', 'k/v.meta.json']);
  });

  it('writes atomically: a failed first write leaves nothing visible', async () => {
    jest.spyOn(fsp, 'rename').mockRejectedValueOnce(new Error('disk gone'));
    await expect(storage.put('k/v', Buffer.from('new'), 'text/html')).rejects.toThrow('disk gone');
    expect(await storage.get('k/v')).toBeNull();
    expect(await listAll(root)).toEqual([]);
  });

  it('writes through a temp file that is renamed into place', async () => {
    const renames: Array<[string, string]> = [];
    const rename = fsp.rename;
    jest.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
      renames.push([path.basename(String(from)), path.basename(String(to))]);
      return rename(from, to);
    });
    await storage.put('k/v.bin', Buffer.from('x'), 'text/plain');
    // Bytes first, sidecar last: the sidecar is the commit marker.
    expect(renames).toEqual([
      [expect.stringMatching(/^\.v\.bin\.[0-9a-f]+\.tmp$/), 'v.bin'],
      [expect.stringMatching(/^\.v\.bin\.meta\.json\.[0-9a-f]+\.tmp$/), 'v.bin.meta.json'],
    ]);
  });

  it('never lets a reader see a partial file while writers replace it', async () => {
    const a = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const b = Buffer.alloc(3 * 1024 * 1024, 0x62);
    await storage.put('k/big', a, 'text/plain');
    let writing = true;
    const writers = (async () => {
      for (let i = 0; i < 10; i++) await storage.put('k/big', i % 2 ? a : b, 'text/plain');
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const got = await storage.get('k/big');
      expect(got).not.toBeNull();
      expect(got!.data.equals(a) || got!.data.equals(b)).toBe(true);
      reads++;
    }
    await writers;
    expect(reads).toBeGreaterThan(0);
  });

  it('keeps the name a file was shared under; a sidecar written before names were kept gives none', async () => {
    await storage.put('ab/one/resume_.txt', Buffer.from('cv'), 'text/plain', 'résumé✓.txt');
    expect(await storage.get('ab/one/resume_.txt')).toEqual({ data: Buffer.from('cv'), contentType: 'text/plain', fileName: 'résumé✓.txt' });
    await writeOldLayout('ab/old/resume_.txt', 'cv', 'text/plain');
    expect(await storage.get('ab/old/resume_.txt')).toEqual({ data: Buffer.from('cv'), contentType: 'text/plain' });
  });

  describe('nameIfUnnamed', () => {
    it('names a file stored the old way, keeping the rest of its sidecar; once named, it keeps that name', async () => {
      await writeOldLayout('ab/old/resume_.txt', 'cv', 'text/plain');
      expect(await storage.nameIfUnnamed('ab/old/resume_.txt', 'résumé✓.txt')).toBe('named');
      expect(await storage.get('ab/old/resume_.txt')).toEqual({ data: Buffer.from('cv'), contentType: 'text/plain', fileName: 'résumé✓.txt' });
      expect(await storage.nameIfUnnamed('ab/old/resume_.txt', 'other.txt')).toBe('kept');
      expect((await storage.get('ab/old/resume_.txt'))?.fileName).toBe('résumé✓.txt');
      // No temp file left beside it.
      expect(await listAll(root)).toEqual(['ab/old/resume_.txt', 'ab/old/resume_.txt.meta.json']);
    });

    it('keeps the name of a file shared with one', async () => {
      await storage.put('ab/new/x.txt', Buffer.from('x'), 'text/plain', 'x✓.txt');
      expect(await storage.nameIfUnnamed('ab/new/x.txt', 'y.txt')).toBe('kept');
      expect((await storage.get('ab/new/x.txt'))?.fileName).toBe('x✓.txt');
    });

    it('answers absent, writing nothing, when no file is stored under the key', async () => {
      expect(await storage.nameIfUnnamed('ab/none/x.txt', 'x.txt')).toBe('absent');
      // Bytes without their sidecar: an unfinished put, not a file.
      await fsp.mkdir(path.join(root, 'k'), { recursive: true });
      await fsp.writeFile(path.join(root, 'k', 'v'), 'orphan');
      expect(await storage.nameIfUnnamed('k/v', 'v.txt')).toBe('absent');
      expect(await listAll(root)).toEqual(['k/v']);
    });

    it('refuses an empty name and a key that is not ours', async () => {
      await writeOldLayout('ab/old/x.txt', 'x', 'text/plain');
      await expect(storage.nameIfUnnamed('ab/old/x.txt', '')).rejects.toThrow(/empty/);
      await expect(storage.nameIfUnnamed('../x', 'x')).rejects.toThrow(/invalid storage key/);
    });
  });

  /** A file as the gateway stored it before names were kept (before ad9d7a3): a sidecar of the content type alone. */
  async function writeOldLayout(key: string, data: string, contentType: string): Promise<void> {
    await fsp.mkdir(path.dirname(path.join(root, key)), { recursive: true });
    await fsp.writeFile(path.join(root, key), data);
    await fsp.writeFile(path.join(root, `${key}.meta.json`), JSON.stringify({ contentType }));
  }

  it('treats bytes without their sidecar (an unfinished put) as absent', async () => {
    await fsp.mkdir(path.join(root, 'k'), { recursive: true });
    await fsp.writeFile(path.join(root, 'k', 'v'), 'orphan');
    expect(await storage.get('k/v')).toBeNull();
  });
});

describe('storageKeyFor', () => {
  it('spreads by the first two characters of the id', () => {
    expect(storageKeyFor('3f2a9c', 'Screen Shot 2024.png')).toBe('3f/3f2a9c/Screen_Shot_2024.png');
  });

  it.each([
    ['résumé.pdf', 'resume.pdf'],
    ['../../etc/passwd', '__._etc_passwd'],
    ['..', '_'],
    ['.htaccess', '_htaccess'],
    ['a..b...c', 'a.b.c'],
    ['x.meta.json', 'x.meta.jso_'],
    ['文件.png', '__.png'],
    ['', 'file'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a_b_c_d_e_f_g_h_i_j'],
  ])('sanitizes %j to %j', (name, expected) => {
    expect(sanitizeFileName(name)).toBe(expected);
    expect(() => assertValidKey(storageKeyFor('ab12', name))).not.toThrow();
  });

  it('cuts long names to 100 characters, keeping the extension', () => {
    const name = sanitizeFileName(`${'n'.repeat(300)}.jpeg`);
    expect(name).toHaveLength(100);
    expect(name.endsWith('n.jpeg')).toBe(true);
  });

  it('refuses ids that are not ours', () => {
    expect(() => storageKeyFor('a', 'x')).toThrow(/invalid file id/);
    expect(() => storageKeyFor('../x', 'x')).toThrow(/invalid file id/);
    expect(() => storageKeyFor('ab/cd', 'x')).toThrow(/invalid file id/);
  });
});

import { keyOfFileUrl, storedNamesOf } from './stored-names';

const ID = '3f2a9c1e-0000-4000-8000-000000000001';

describe('storedNamesOf', () => {
  it('names the file by its name, and its thumbnail in the format of its key', () => {
    expect(storedNamesOf({ name: 'Отчёт.jpeg', url: `http://chat.example/files/3f/${ID}/_____.jpeg`, thumb_url: `http://chat.example/files/3f/${ID}-thumb/_____.png` })).toEqual([
      { key: `3f/${ID}/_____.jpeg`, fileName: 'Отчёт.jpeg' },
      { key: `3f/${ID}-thumb/_____.png`, fileName: 'Отчёт.png' },
    ]);
    expect(storedNamesOf({ name: 'photo', url: `http://h/files/3f/${ID}/photo`, thumb_url: `http://h/files/3f/${ID}-thumb/photo.jpg` })[1])
      .toEqual({ key: `3f/${ID}-thumb/photo.jpg`, fileName: 'photo.jpg' });
  });

  it('takes the key whatever the public base was: another host, a path before /files', () => {
    expect(storedNamesOf({ name: 'résumé✓.txt', url: `https://old.example:8443/chat/files/3f/${ID}/resume_.txt` }))
      .toEqual([{ key: `3f/${ID}/resume_.txt`, fileName: 'résumé✓.txt' }]);
  });

  it('gives nothing for a record without a name', () => {
    expect(storedNamesOf({ name: '', url: `http://h/files/3f/${ID}/x.txt` })).toEqual([]);
    expect(storedNamesOf({ url: `http://h/files/3f/${ID}/x.txt` } as never)).toEqual([]);
  });
});

describe('keyOfFileUrl', () => {
  it.each([
    [`http://h/files/3f/${ID}/x.txt`, `3f/${ID}/x.txt`],
    [`http://h/files/3f/${ID}/x.txt?v=1#top`, `3f/${ID}/x.txt`],
    [`http://h/files/files/3f/${ID}/x.txt`, `3f/${ID}/x.txt`],
  ])('reads %j as the key %j', (url, key) => {
    expect(keyOfFileUrl(url)).toBe(key);
  });

  it.each([
    'not a url',
    `/files/3f/${ID}/x.txt`,
    `http://h/emoticons/3f/${ID}/x.txt`,
    `http://h/files/${ID}/x.txt`,
    `http://h/files/ab/${ID}/x.txt`,
    `http://h/files/3f/${ID}/x.txt.meta.json`,
    `http://h/files/3f/${ID}/.hidden`,
    `http://h/files/3f/${ID}/%2e%2e`,
    `http://h/files/3f/${ID}/r%C3%A9.txt`,
    `http://h/files/3f/${ID}/`,
  ])('names no key in %j', (url) => {
    expect(keyOfFileUrl(url)).toBeNull();
  });

  it('names no key in what is not a string', () => {
    expect(keyOfFileUrl(undefined)).toBeNull();
    expect(keyOfFileUrl(42)).toBeNull();
  });
});

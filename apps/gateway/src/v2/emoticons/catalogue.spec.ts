import { EMOTICONS, EMOTICON_MAX_RESULTS_LIMIT, findEmoticon, listEmoticons } from './catalogue';

describe('emoticon catalogue', () => {
  it('holds at least 60 global emoticons with sane sizes', () => {
    expect(EMOTICONS.length).toBeGreaterThanOrEqual(60);
    for (const e of EMOTICONS) {
      expect(e.type).toBe('global');
      expect(Number.isInteger(e.width) && e.width > 0).toBe(true);
      expect(Number.isInteger(e.height) && e.height > 0).toBe(true);
      expect(e.audioPath).toBeUndefined();
    }
  });

  it('numbers ids 1..n in order, so they are unique integers', () => {
    expect(EMOTICONS.map((e) => e.id)).toEqual(EMOTICONS.map((_, i) => i + 1));
  });

  it('pins a few ids, which clients may have stored', () => {
    expect(findEmoticon('1')?.shortcut).toBe('allthethings');
    expect(findEmoticon('allthethings')?.id).toBe(1);
    expect(findEmoticon('zoidberg')?.id).toBe(41);
  });

  it('has unique lowercase alphanumeric shortcuts that are never all digits', () => {
    const shortcuts = EMOTICONS.map((e) => e.shortcut);
    expect(new Set(shortcuts).size).toBe(shortcuts.length);
    for (const s of shortcuts) {
      expect(s).toMatch(/^[a-z0-9]+$/);
      // An all-digit shortcut would be unreachable: findEmoticon reads digits as an id.
      expect(s).not.toMatch(/^\d+$/);
    }
    expect(shortcuts).toEqual(expect.arrayContaining(['allthethings', 'awyeah', 'facepalm', 'yuno', 'x']));
  });

  it('leaves out profane shortcuts', () => {
    const shortcuts = new Set(EMOTICONS.map((e) => e.shortcut));
    for (const s of ['fuckyeah', 'ohcrap', 'sweetjesus', 'poo', 'wtf']) expect(shortcuts.has(s)).toBe(false);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(EMOTICONS)).toBe(true);
    expect(Object.isFrozen(EMOTICONS[0])).toBe(true);
  });
});

describe('findEmoticon', () => {
  it('finds by id', () => {
    expect(findEmoticon('2')).toBe(EMOTICONS[1]);
    expect(findEmoticon(String(EMOTICONS.length))).toBe(EMOTICONS[EMOTICONS.length - 1]);
    expect(findEmoticon('007')).toBe(EMOTICONS[6]);
  });

  it('finds by shortcut, case-insensitively', () => {
    expect(findEmoticon('awyeah')?.shortcut).toBe('awyeah');
    expect(findEmoticon('AllTheThings')?.id).toBe(1);
  });

  it('finds by (shortcut) as typed in chat', () => {
    expect(findEmoticon('(allthethings)')?.id).toBe(1);
    expect(findEmoticon('(FacePalm)')?.shortcut).toBe('facepalm');
    expect(findEmoticon(' (yuno) ')?.shortcut).toBe('yuno');
  });

  it('returns undefined for unknown keys', () => {
    for (const key of ['', ' ', '()', '(', ')', '0', '-1', '1.5', '9999', '99999999999999999999', 'nosuchthing', '((allthethings))', 'all the things']) {
      expect(findEmoticon(key)).toBeUndefined();
    }
  });
});

describe('listEmoticons', () => {
  it('defaults to all types, start 0, 100 results', () => {
    const page = listEmoticons();
    expect(page.total).toBe(EMOTICONS.length);
    expect(page.items).toEqual(EMOTICONS.slice(0, 100));
  });

  it('pages through the catalogue in id order without gaps or overlap', () => {
    const seen: number[] = [];
    for (let start = 0; start < EMOTICONS.length; start += 7) {
      const page = listEmoticons({ startIndex: start, maxResults: 7 });
      expect(page.total).toBe(EMOTICONS.length);
      expect(page.items.length).toBe(Math.min(7, EMOTICONS.length - start));
      seen.push(...page.items.map((e) => e.id));
    }
    expect(seen).toEqual(EMOTICONS.map((e) => e.id));
  });

  it('returns an empty page past the end and for maxResults 0', () => {
    expect(listEmoticons({ startIndex: EMOTICONS.length })).toEqual({ items: [], total: EMOTICONS.length });
    expect(listEmoticons({ startIndex: 10_000 }).items).toEqual([]);
    expect(listEmoticons({ maxResults: 0 })).toEqual({ items: [], total: EMOTICONS.length });
  });

  it('filters by type: global is everything, group is empty', () => {
    expect(listEmoticons({ type: 'global', maxResults: 1000 })).toEqual({ items: EMOTICONS, total: EMOTICONS.length });
    expect(listEmoticons({ type: 'all', maxResults: 1000 }).items).toEqual(EMOTICONS);
    expect(listEmoticons({ type: 'group' })).toEqual({ items: [], total: 0 });
    expect(listEmoticons({ type: 'group', startIndex: 5, maxResults: 5 })).toEqual({ items: [], total: 0 });
  });

  it('rejects invalid arguments with RangeError', () => {
    expect(() => listEmoticons({ type: 'private' as never })).toThrow(RangeError);
    expect(() => listEmoticons({ startIndex: -1 })).toThrow(RangeError);
    expect(() => listEmoticons({ startIndex: 1.5 })).toThrow(RangeError);
    expect(() => listEmoticons({ startIndex: Number.NaN })).toThrow(RangeError);
    expect(() => listEmoticons({ maxResults: -1 })).toThrow(RangeError);
    expect(() => listEmoticons({ maxResults: EMOTICON_MAX_RESULTS_LIMIT + 1 })).toThrow(RangeError);
    expect(listEmoticons({ maxResults: EMOTICON_MAX_RESULTS_LIMIT }).items.length).toBe(EMOTICONS.length);
  });

  it('returns copies, so callers cannot change the catalogue', () => {
    const page = listEmoticons();
    (page.items as unknown as unknown[]).length = 0;
    expect(listEmoticons().items.length).toBe(Math.min(100, EMOTICONS.length));
  });
});

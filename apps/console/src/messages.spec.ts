import {
  cardOf, chatItemOf, completeMention, continuesGroup, colourOf, fileNameOf, initialsOf, mentionCandidates, mentionQueryAt, mergeItems,
  previewsOf, privateItemOf, safeHref, segmentsOf,
} from './messages';

describe('console message rendering rules', () => {
  it('follows http(s) links only', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('/files/1/a.png')).toBe('/files/1/a.png');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref(' JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(safeHref('vbscript:x')).toBeNull();
    expect(safeHref(42)).toBeNull();
  });

  it('splits text into text, mentions of known users and links', () => {
    const names = new Set(['grace', 'alan']);
    expect(segmentsOf('hi @grace, see https://example.com/x. @nobody too', names, 'alan')).toEqual([
      { kind: 'text', text: 'hi ' },
      { kind: 'mention', text: '@grace', self: false },
      { kind: 'text', text: ', see ' },
      { kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x' },
      { kind: 'text', text: '. @nobody too' },
    ]);
    expect(segmentsOf('@Alan look', names, 'alan')[0]).toEqual({ kind: 'mention', text: '@Alan', self: true });
    expect(segmentsOf('<script>alert(1)</script>', names)).toEqual([{ kind: 'text', text: '<script>alert(1)</script>' }]);
    expect(segmentsOf('javascript:alert(1)', names)).toEqual([{ kind: 'text', text: 'javascript:alert(1)' }]);
  });

  it('reads a card as text, its links only when safe', () => {
    const card = cardOf(JSON.stringify({
      style: 'link', title: 'Build <b>42</b>', url: 'javascript:alert(1)',
      description: { value: '<img src=x onerror=alert(1)>passed', format: 'html' },
      thumbnail: { url: 'https://example.com/t.png' },
      attributes: [{ label: 'branch', value: { label: 'main' } }],
    }));
    expect(card).toEqual({
      title: 'Build <b>42</b>', description: 'passed', url: null, thumbnail: 'https://example.com/t.png',
      attributes: [{ label: 'branch', value: 'main' }],
    });
    expect(cardOf('not json')).toBeNull();
    expect(cardOf('[1]')).toBeNull();
  });

  it('keeps a notification colour it knows', () => {
    expect(colourOf('red')).toBe('red');
    expect(colourOf('blue')).toBe('yellow');
  });

  it('reads history items and event messages alike', () => {
    expect(chatItemOf({ id: 'a', date: 'd', from: { id: 3, name: 'Grace' }, message: 'hi @Alan', type: 'message', mentions: [{ id: 4, mention_name: 'Alan' }] })).toMatchObject({
      id: 'a', from: 'Grace', fromUserId: 3, format: 'text', color: null, card: null, file: null, mentions: ['alan'],
    });
    expect(chatItemOf({ id: 'b', date: 'd', from: 'CI', message: '<b>ok</b>', message_format: 'html', color: 'green', type: 'notification' }))
      .toMatchObject({ from: 'CI', fromUserId: null, format: 'html', color: 'green' });
    expect(chatItemOf({ id: 'c', message: 'f', file: { name: 'a.png', url: '/files/a.png', thumb_url: 'javascript:x', size: 3 } })!.file)
      .toEqual({ name: 'a.png', url: '/files/a.png', thumbUrl: null, size: 3 });
    expect(chatItemOf({ message: 'no id' })).toBeNull();
  });

  it('merges history and live items once each, oldest first, keeping the newest', () => {
    const item = (id: string) => chatItemOf({ id, message: id })!;
    expect(mergeItems([item('1'), item('2')], [item('2'), item('3')]).map((i) => i.id)).toEqual(['1', '2', '3']);
    expect(mergeItems([item('1'), item('2')], [item('3')], 2).map((i) => i.id)).toEqual(['2', '3']);
  });

  it('shows a known emoticon as its image, named by its shortcut; an unknown one stays text', () => {
    const emoticons = new Map([['party', '/emoticons/party.svg']]);
    expect(segmentsOf('so (party) (nope) (PARTY)', new Set(), undefined, emoticons)).toEqual([
      { kind: 'text', text: 'so ' },
      { kind: 'emoticon', text: '(party)', src: '/emoticons/party.svg' },
      { kind: 'text', text: ' (nope) ' },
      { kind: 'emoticon', text: '(PARTY)', src: '/emoticons/party.svg' },
    ]);
    expect(segmentsOf('(party)', new Set())).toEqual([{ kind: 'text', text: '(party)' }]);
  });

  it('shows a live notification\'s card as the history does (the stream gives it in message.card)', () => {
    const card = { style: 'link', id: 'c1', title: 'Build 42', url: 'https://ci.example.com/42', thumbnail: { url: 'https://ci.example.com/t.png' } };
    const event = { room: { id: 1 }, message: { id: 'n1', date: '2026-01-01T10:00:00.000Z', from: 'CI', message: 'built', message_format: 'text', color: 'green', type: 'notification', card: JSON.stringify(card) } };
    const live = chatItemOf(event.message)!;
    const history = chatItemOf({ ...event.message, date: '2026-01-01T10:00:00.000+00:00' })!;
    expect(live.card).toEqual({ title: 'Build 42', description: '', url: 'https://ci.example.com/42', thumbnail: 'https://ci.example.com/t.png', attributes: [] });
    expect(live.card).toEqual(history.card);
  });

  it('previews the links the history extracted: images with a text alternative, videos, pages', () => {
    expect(previewsOf([{ type: 'image', url: 'https://example.com/img/cat%20one.png' }])).toEqual([
      { kind: 'image', href: 'https://example.com/img/cat%20one.png', src: 'https://example.com/img/cat%20one.png', alt: 'Image: cat one.png' },
    ]);
    expect(previewsOf([{ type: 'image', url: 'https://example.com/x', image: { image: 'javascript:x', name: 'Chart' } }])[0])
      .toMatchObject({ src: 'https://example.com/x', alt: 'Image: Chart' });
    expect(previewsOf([{ type: 'video', url: 'https://youtu.be/abc', video: { title: 'Demo', author: 'Ada' } }])).toEqual([
      { kind: 'video', href: 'https://youtu.be/abc', title: 'Demo', thumbnail: null, author: 'Ada' },
    ]);
    expect(previewsOf([{ type: 'link', url: 'https://example.com/a', link: { title: 'A page', description: 'About A' } }])).toEqual([
      { kind: 'link', href: 'https://example.com/a', title: 'A page', description: 'About A', site: 'example.com' },
    ]);
    expect(previewsOf([{ type: 'link', url: 'https://example.com/a' }])).toEqual([]);
    expect(previewsOf([{ type: 'link', url: 'javascript:alert(1)' }, null, 'x'])).toEqual([]);
    expect(previewsOf(undefined)).toEqual([]);
    expect(fileNameOf('/files/1/a.png?x=1')).toBe('a.png');
    expect(chatItemOf({ id: 'h', message: '<a href="https://e.com/a.png">x</a>', message_format: 'html', message_links: [{ type: 'image', url: 'https://e.com/a.png' }] })!.previews).toEqual([]);
  });

  it('groups items by sender and minute, messages apart from notifications', () => {
    const at = (id: string, date: string, from: Record<string, unknown> | string, extra: Record<string, unknown> = {}) =>
      chatItemOf({ id, date, from, message: id, ...extra })!;
    const ada = { id: 1, name: 'Ada' };
    const a1 = at('1', '2026-01-01T10:00:05.000+00:00', ada);
    const a2 = at('2', '2026-01-01T11:00:55.000+01:00', ada);
    expect(continuesGroup(undefined, a1)).toBe(false);
    expect(continuesGroup(a1, a2)).toBe(true);
    expect(continuesGroup(a1, at('3', '2026-01-01T10:01:00.000Z', ada))).toBe(false);
    expect(continuesGroup(a1, at('4', '2026-01-01T10:00:10.000Z', { id: 2, name: 'Ada' }))).toBe(false);
    const ci = at('5', '2026-01-01T10:00:10.000Z', 'CI', { type: 'notification', color: 'red' });
    expect(continuesGroup(ci, at('6', '2026-01-01T10:00:20.000Z', 'CI', { type: 'notification', color: 'green' }))).toBe(true);
    expect(continuesGroup(ci, at('7', '2026-01-01T10:00:20.000Z', 'Deploy', { type: 'notification' }))).toBe(false);
    expect(continuesGroup(a1, at('8', 'not a date', ada))).toBe(false);
  });

  it('makes initials for avatars', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('grace brewster hopper')).toBe('GH');
    expect(initialsOf('CI')).toBe('C');
    expect(initialsOf('  ')).toBe('?');
  });

  it('finds the @name being typed, who it could mean, and completes it', () => {
    expect(mentionQueryAt('hi @gr', 6)).toEqual({ start: 3, query: 'gr' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('mail a@b', 8)).toBeNull();
    expect(mentionQueryAt('hi @grace there', 15)).toBeNull();
    const people = [
      { id: 1, name: 'Ada Lovelace', mention_name: 'ada' },
      { id: 2, name: 'Grace Hopper', mention_name: 'grace' },
      { id: 3, name: 'Alan Turing', mention_name: 'turing' },
      { id: 2, name: 'Grace Hopper', mention_name: 'grace' },
    ];
    expect(mentionCandidates('a', people).map((p) => p.id)).toEqual([1, 3]);
    expect(mentionCandidates('', people).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(mentionCandidates('hop', people).map((p) => p.id)).toEqual([2]);
    expect(completeMention('hi @gr  ok', 3, 6, people[1])).toEqual({ text: 'hi @grace ok', caret: 10 });
  });

  it('takes a live private message only between me and the other person', () => {
    const message = { id: 'p1', date: 'd', from: { id: 2, name: 'Grace' }, message: 'hi', type: 'message', message_format: 'text' };
    expect(privateItemOf({ message, from: { id: 2 }, to: { id: 1 } }, 1, 2)).toMatchObject({ id: 'p1', from: 'Grace' });
    expect(privateItemOf({ message: { ...message, from: { id: 1, name: 'Ada' } }, from: { id: 1 }, to: { id: 2 } }, 1, 2)).toMatchObject({ id: 'p1' });
    expect(privateItemOf({ message, from: { id: 2 }, to: { id: 1 } }, 1, 3)).toBeNull();
    expect(privateItemOf({ message, from: { id: 3 }, to: { id: 1 } }, 1, 2)).toBeNull();
    expect(privateItemOf(null, 1, 2)).toBeNull();
  });
});

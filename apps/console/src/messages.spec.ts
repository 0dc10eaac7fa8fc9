import { cardOf, chatItemOf, colourOf, mergeItems, safeHref, segmentsOf } from './messages';

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
});

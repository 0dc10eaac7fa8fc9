import { clip, mergeTextAttachments, pack, packPosts, summary, textPieces, type PackMessage, type Piece } from './pack';

const text = (t: string, sep = '\n'): Piece<string> => ({ kind: 'text', text: t, sep });
const box = (v: string, size = v.length): Piece<string> => ({ kind: 'attachment', value: v, size });
const limits = { text: 20, attachments: 2, total: 30, textInTotal: true };

describe('pack', () => {
  it('fills each group while it fits and keeps the order', () => {
    expect(pack([1, 2, 3, 4, 5], (g) => g.reduce((a, b) => a + b, 0) <= 6)).toEqual([[1, 2, 3], [4], [5]]);
  });

  it('opens a new group where the next unit may not join', () => {
    expect(pack(['t', 'c', 't'], () => true, (g, next) => !(g.includes('c') && next === 't'))).toEqual([['t', 'c'], ['t']]);
  });

  it('gives a unit too large for any group a group of its own rather than lose it', () => {
    expect(pack([1, 9, 1], (g) => g.reduce((a, b) => a + b, 0) <= 6)).toEqual([[1], [9], [1]]);
  });
});

describe('packPosts', () => {
  it('joins consecutive texts of one sender into one post, on new lines', () => {
    expect(packPosts([{ username: 'a', label: '*a*: ', pieces: [text('one')] }, { username: 'a', label: '*a*: ', pieces: [text('two')] }], limits))
      .toEqual([{ username: 'a', text: 'one\ntwo', attachments: [] }]);
  });

  it('starts a new post for another sender, for text after an attachment, and at each limit', () => {
    const posts = packPosts([
      { username: 'a', label: '*a*: ', pieces: [text('one')] },
      { username: 'b', label: '*b*: ', pieces: [text('two'), box('x')] },
      { username: 'b', label: '*b*: ', pieces: [text('three')] }, // shown above x if it joined: a new post
      { username: 'b', label: '*b*: ', pieces: [text('a'.repeat(15))] }, // 5 + 1 + 15 > 20
      { username: 'b', label: '*b*: ', pieces: [box('p'), box('q'), box('r')] }, // at most 2 attachments
    ], limits);
    expect(posts).toEqual([
      { username: 'a', text: 'one', attachments: [] },
      { username: 'b', text: 'two', attachments: ['x'] },
      { username: 'b', text: 'three', attachments: [] },
      { username: 'b', text: 'a'.repeat(15), attachments: ['p', 'q'] },
      { username: 'b', text: '', attachments: ['r'] },
    ]);
  });

  it('keeps attachments within the total, and text too where it counts', () => {
    expect(packPosts([{ username: null, label: '', pieces: [box('a', 20), box('b', 20)] }], { ...limits, attachments: 10 }).map((p) => p.attachments)).toEqual([['a'], ['b']]);
    expect(packPosts([{ username: null, label: '', pieces: [text('x'.repeat(15)), box('b', 20)] }], { ...limits, attachments: 10 }).length).toBe(2);
    expect(packPosts([{ username: null, label: '', pieces: [text('x'.repeat(15)), box('b', 20)] }], { ...limits, attachments: 10, textInTotal: false }).length).toBe(1);
  });

  it('puts one-line messages of several senders in one post under the webhook\'s own name, each line naming its sender', () => {
    const line = (who: string, t: string): PackMessage<string> => ({ username: who, label: `*${who}*: `, pieces: [text(t)] });
    const wide = { text: 1000, attachments: 20, total: 1000, textInTotal: true };
    expect(packPosts([line('a', 'one'), line('b', 'two'), line('a', 'three')], wide))
      .toEqual([{ username: null, text: '*a*: one\n*b*: two\n*a*: three', attachments: [] }]);
    // One sender alone keeps the username override and no names on the lines.
    expect(packPosts([line('a', 'one'), line('a', 'two')], wide)).toEqual([{ username: 'a', text: 'one\ntwo', attachments: [] }]);
    // A message with an attachment, or cut into parts, keeps a post of its sender's own.
    const withBox: PackMessage<string> = { username: 'b', label: '*b*: ', pieces: [text('see'), box('x')] };
    expect(packPosts([line('a', 'one'), withBox, line('a', 'two')], wide).map((p) => p.username)).toEqual(['a', 'b', 'a']);
    const cut: PackMessage<string> = { username: 'b', label: '*b*: ', pieces: [text('ab '), text('cd', '')] };
    expect(packPosts([line('a', 'one'), cut], wide).map((p) => p.username)).toEqual(['a', 'b']);
    // A code block or a list starts on a line of its own, where Markdown reads it.
    expect(packPosts([line('a', 'one'), line('b', '```\ncode\n```'), line('c', '- item')], wide)[0].text).toBe('*a*: one\n*b*:\n```\ncode\n```\n*c*:\n- item');
    // The names count toward the limit: 'x'.repeat(8) twice, named, is 2 * 13 + 1 > 20.
    expect(packPosts([line('a', 'x'.repeat(8)), line('b', 'x'.repeat(8))], limits).length).toBe(2);
  });

  it('joins the pieces of one split message without a separator', () => {
    expect(textPieces(['ab ', 'cd'])).toEqual([text('ab ', '\n'), text('cd', '')]);
  });
});

describe('summary and clip', () => {
  it('shortens to the first line with an ellipsis, never halving a surrogate pair', () => {
    expect(summary('\n  first line \nsecond')).toBe('first line');
    expect(summary('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(clip('ab😀cd', 4)).toBe('ab…');
    expect(clip('abc', 3)).toBe('abc');
  });
});

describe('mergeTextAttachments', () => {
  const note = (color: string, t: string): Piece<Record<string, unknown>> => ({ kind: 'attachment', value: { color, fallback: t, text: t }, size: t.length * 2 });
  const wide = { text: 40_000, attachments: 20, total: 40_000, textInTotal: true };

  it('makes one sender\'s run of same-coloured notifications one attachment, in order, other colours and cards apart', () => {
    const burst = Array.from({ length: 50 }, (_, i) => ({ username: 'CI', label: '*CI*: ', pieces: [note('warning', `build ${i}`)] }));
    const posts = packPosts(burst, wide, mergeTextAttachments(4_000));
    expect(posts).toHaveLength(1);
    expect(posts[0].attachments).toEqual([{ color: 'warning', fallback: 'build 0', text: Array.from({ length: 50 }, (_, i) => `build ${i}`).join('\n') }]);

    const mixed = packPosts([
      { username: 'CI', label: '', pieces: [note('warning', 'a')] },
      { username: 'CI', label: '', pieces: [note('danger', 'b')] },
      { username: 'CI', label: '', pieces: [{ kind: 'attachment', value: { color: 'danger', title: 'Card' }, size: 4 }] },
      { username: 'Other', label: '', pieces: [note('danger', 'c')] },
    ], wide, mergeTextAttachments(4_000));
    expect(mixed.flatMap((p) => p.attachments).map((a) => a.text ?? a.title)).toEqual(['a', 'b', 'Card', 'c']);
  });

  it('stops a merged attachment at its text limit', () => {
    const merge = mergeTextAttachments(5);
    expect(merge({ color: 'good', text: 'ab' }, { color: 'good', text: 'cd' })).toEqual({ color: 'good', text: 'ab\ncd' });
    expect(merge({ color: 'good', text: 'abc' }, { color: 'good', text: 'cd' })).toBeNull();
  });

  it('merges Discord embeds by their description', () => {
    const merge = mergeTextAttachments(4_096, 'description');
    expect(merge({ color: 1, description: 'a' }, { color: 1, description: 'b' })).toEqual({ color: 1, description: 'a\nb' });
    expect(merge({ color: 1, description: 'a' }, { color: 2, description: 'b' })).toBeNull();
    expect(merge({ color: 1, description: 'a', title: 'T' }, { color: 1, description: 'b' })).toBeNull();
  });
});

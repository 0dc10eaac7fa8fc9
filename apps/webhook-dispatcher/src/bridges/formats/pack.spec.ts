import { clip, pack, summary, textPieces, type Piece } from './pack';

const text = (t: string, sep = '\n'): Piece<string> => ({ kind: 'text', text: t, sep });
const box = (v: string, size = v.length): Piece<string> => ({ kind: 'attachment', value: v, size });
const limits = { text: 20, attachments: 2, total: 30, textInTotal: true };

describe('pack', () => {
  it('joins consecutive texts of one sender into one post, on new lines', () => {
    expect(pack([{ username: 'a', pieces: [text('one')] }, { username: 'a', pieces: [text('two')] }], limits))
      .toEqual([{ username: 'a', text: 'one\ntwo', attachments: [] }]);
  });

  it('starts a new post for another sender, for text after an attachment, and at each limit', () => {
    const posts = pack([
      { username: 'a', pieces: [text('one')] },
      { username: 'b', pieces: [text('two'), box('x')] },
      { username: 'b', pieces: [text('three')] }, // shown above x if it joined: a new post
      { username: 'b', pieces: [text('a'.repeat(15))] }, // 5 + 1 + 15 > 20
      { username: 'b', pieces: [box('p'), box('q'), box('r')] }, // at most 2 attachments
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
    expect(pack([{ username: null, pieces: [box('a', 20), box('b', 20)] }], { ...limits, attachments: 10 }).map((p) => p.attachments)).toEqual([['a'], ['b']]);
    expect(pack([{ username: null, pieces: [text('x'.repeat(15)), box('b', 20)] }], { ...limits, attachments: 10 }).length).toBe(2);
    expect(pack([{ username: null, pieces: [text('x'.repeat(15)), box('b', 20)] }], { ...limits, attachments: 10, textInTotal: false }).length).toBe(1);
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

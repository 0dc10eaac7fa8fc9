import { formatFileSize, pack, splitBlock, splitText } from './split-rich';
import type { Block } from './types';

const atMost = (n: number) => (s: string) => s.length <= n;

describe('splitText', () => {
  it('leaves text that fits alone', () => {
    expect(splitText('short', atMost(10))).toEqual(['short']);
  });

  it('cuts after a line break before a space, and the pieces join back to the text', () => {
    const text = 'one two three\nfour five six\nseven';
    const pieces = splitText(text, atMost(16));
    expect(pieces).toEqual(['one two three\n', 'four five six\n', 'seven']);
    expect(pieces.join('')).toBe(text);
  });

  it('cuts after a space when a line is longer than the limit', () => {
    expect(splitText('alpha beta gamma delta', atMost(12))).toEqual(['alpha beta ', 'gamma delta']);
  });

  it('never cuts inside a protected token, nor between the halves of a surrogate pair', () => {
    // No space to cut at: unprotected, the cut falls inside the URL; protected, before it.
    const text = 'abc,https://x.example/ab?q=1';
    expect(splitText(text, atMost(26), null)).toEqual(['abc,https://x.example/ab?q', '=1']);
    expect(splitText(text, atMost(26), /https?:\/\/\S+/)).toEqual(['abc,', 'https://x.example/ab?q=1']);
    // A token longer than the limit is cut through rather than lost.
    expect(splitText('https://example.com/a/very/long/path', atMost(20), /https?:\/\/\S+/).join('')).toBe('https://example.com/a/very/long/path');
    expect(splitText('😀😀😀😀', atMost(3)).every((p) => !/[\ud800-\udbff]$/.test(p))).toBe(true);
    expect(splitText('😀😀😀😀', atMost(3)).join('')).toBe('😀😀😀😀');
  });
});

describe('splitBlock', () => {
  const size = (b: Block) => JSON.stringify(b).length;

  it('splits a table between rows and repeats the header row on every piece', () => {
    const row = (s: string) => [[{ t: 'text' as const, text: s }]];
    const table: Block = { t: 'table', header: true, rows: [row('head'), row('a'.repeat(40)), row('b'.repeat(40)), row('c'.repeat(40))] };
    const pieces = splitBlock(table, (b) => size(b) <= 150);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((p) => (p as Extract<Block, { t: 'table' }>).rows[0])).toEqual(pieces.map(() => row('head')));
    expect(pieces.flatMap((p) => (p as Extract<Block, { t: 'table' }>).rows.slice(1))).toEqual(table.rows.slice(1));
  });

  it('keeps bold on every piece of a long bold run, and a link whole', () => {
    const para: Block = {
      t: 'paragraph',
      children: [
        { t: 'bold', children: [{ t: 'text', text: 'word '.repeat(30) }] },
        { t: 'link', href: 'https://example.com', children: [{ t: 'text', text: 'link' }] },
      ],
    };
    const pieces = splitBlock(para, (b) => size(b) <= 120);
    expect(pieces.length).toBeGreaterThan(2);
    const inlines = pieces.flatMap((p) => (p as Extract<Block, { t: 'paragraph' }>).children);
    expect(inlines.slice(0, -1).every((i) => i.t === 'bold')).toBe(true);
    expect(inlines[inlines.length - 1]).toEqual(para.children[1]);
  });

  it('splits a code block between lines', () => {
    const pre: Block = { t: 'pre', text: Array.from({ length: 20 }, (_, n) => `line ${n}`).join('\n') };
    const pieces = splitBlock(pre, (b) => size(b) <= 80) as Array<Extract<Block, { t: 'pre' }>>;
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.slice(0, -1).every((p) => p.text.endsWith('\n'))).toBe(true);
    expect(pieces.map((p) => p.text).join('')).toBe(pre.text);
  });
});

describe('pack', () => {
  it('fills each group while it fits and keeps the order', () => {
    expect(pack([1, 2, 3, 4, 5], (g) => g.reduce((a, b) => a + b, 0) <= 6)).toEqual([[1, 2, 3], [4], [5]]);
  });

  it('opens a new group where the next unit may not join', () => {
    expect(pack(['t', 'c', 't'], () => true, (g, next) => !(g.includes('c') && next === 't'))).toEqual([['t', 'c'], ['t']]);
  });
});

it('formats file sizes as people read them', () => {
  expect([512, 48_213, 2_516_582, 5 * 1024 ** 3].map(formatFileSize)).toEqual(['512 B', '47 KB', '2.4 MB', '5 GB']);
});

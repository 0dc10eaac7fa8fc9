import type { Block } from './types';
import { partText, RAW_CODE, RAW_TEXT, splitBlock, splitText, type Part } from './split';

const joined = (parts: Part[]) => parts.map((p) => p.text).join('');

function words(n: number, seed = 1): string {
  // A deterministic text of words, lines and paragraphs (no Math.random: a failure repeats).
  let x = seed;
  const next = () => { x = (x * 1103515245 + 12345) % 2147483648; return x; };
  const out: string[] = [];
  while (out.join('').length < n) {
    const r = next() % 100;
    out.push(r < 8 ? '\n' : r < 10 ? '\n\n' : `${'lorem ipsum dolor sit amet consectetur'.split(' ')[next() % 6]}${r % 3 === 0 ? '' : ' '}`);
  }
  return out.join('').slice(0, n);
}

describe('splitText', () => {
  it('leaves a text within the limit whole', () => {
    expect(splitText('short', 2000)).toEqual([{ prefix: '', text: 'short', suffix: '' }]);
  });

  it('cuts 10,000 characters for Discord into 5 or more parts of at most 2,000 that join back to the text', () => {
    const text = words(10_000);
    const parts = splitText(text, 2000);
    expect(parts.length).toBeGreaterThanOrEqual(5);
    for (const p of parts) expect(partText(p).length).toBeLessThanOrEqual(2000);
    expect(parts.map(partText).join('')).toBe(text);
  });

  it('cuts at a line boundary when there is one in the latter half, else at a word boundary', () => {
    const text = `${'a'.repeat(60)}\n${'b '.repeat(30)}`;
    expect(splitText(text, 80).map((p) => p.text)).toEqual([`${'a'.repeat(60)}\n`, 'b '.repeat(30)]);
    const words2 = 'word '.repeat(40);
    const parts = splitText(words2, 42);
    for (const p of parts.slice(0, -1)) expect(p.text.endsWith(' ')).toBe(true);
    expect(joined(parts)).toBe(words2);
  });

  it.each([
    ['a Markdown link', '[the build log](https://ci.example.com/builds/42/log)'],
    ['a Slack link', '<https://ci.example.com/builds/42/log|the build log>'],
    ['a bare URL', 'https://ci.example.com/builds/42/log?a=1&b=2'],
    ['an entity', '&amp;'],
    ['an inline code span', '`npm run build --workspaces`'],
    ['a backslash escape', '\\*'],
  ])('never cuts inside %s', (_name, atom) => {
    for (let pad = 0; pad < 70; pad++) {
      // With spaces around it and, where it ends by itself, without any (only a hard cut is left).
      const glued = atom.startsWith('http') ? [] : [`${'x'.repeat(pad)}${atom}${'y'.repeat(60)}`];
      for (const text of [`${'x'.repeat(pad)} ${atom} ${'y '.repeat(30)}`, ...glued]) {
        const parts = splitText(text, 64);
        expect(joined(parts)).toBe(text);
        expect(parts.some((p) => p.text.includes(atom))).toBe(true);
      }
    }
  });

  it('closes a code block it must cut and reopens it, with its language, in the next part', () => {
    const code = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const text = `Before\n\`\`\`ts\n${code}\n\`\`\`\nAfter`;
    const parts = splitText(text, 120);
    expect(parts.length).toBeGreaterThan(2);
    expect(joined(parts)).toBe(text);
    for (const p of parts) {
      expect(partText(p).length).toBeLessThanOrEqual(120);
      // Every part shows balanced fences: its code is shown as code.
      expect((partText(p).match(/```/g) ?? []).length % 2).toBe(0);
    }
    expect(parts[1].prefix).toBe('```ts\n');
    expect(parts[0].suffix).toMatch(/^\n?```$/);
  });

  it('repeats a Markdown table\'s header and delimiter lines at the start of each part that continues it', () => {
    const head = '| Service | Status |\n| --- | --- |\n';
    const rows = Array.from({ length: 30 }, (_, i) => `| api-${i} | up |`).join('\n');
    const text = `Status:\n\n${head}${rows}\n\nThat is all.`;
    const parts = splitText(text, 200);
    expect(parts.length).toBeGreaterThan(2);
    expect(joined(parts)).toBe(text);
    for (const p of parts.slice(1)) if (/^\| api-/.test(p.text)) expect(p.prefix).toBe(head);
    expect(parts.filter((p) => p.prefix === head).length).toBeGreaterThan(0);
    for (const p of parts) expect(partText(p).length).toBeLessThanOrEqual(200);
  });

  it('repeats the header of a table aligned in a code block, with the reopened fence', () => {
    const rows = Array.from({ length: 30 }, (_, i) => `api-${i}    up`).join('\n');
    const text = `\`\`\`\nService  Status\n-------  ------\n${rows}\n\`\`\``;
    const parts = splitText(text, 160);
    expect(parts.length).toBeGreaterThan(2);
    expect(joined(parts)).toBe(text);
    for (const p of parts.slice(1)) expect(p.prefix).toBe('```\nService  Status\n-------  ------\n');
    // No part ends between the header and the first row.
    expect(parts[0].text).toMatch(/api-\d+ +up\n?$/);
  });

  it('reopens only the block when a header would take more than a quarter of each part', () => {
    const head = `| ${'x'.repeat(40)} |\n| --- |\n`;
    const text = head + Array.from({ length: 20 }, (_, i) => `| r${i} |`).join('\n');
    const parts = splitText(text, 100);
    expect(joined(parts)).toBe(text);
    expect(parts.every((p) => p.prefix === '')).toBe(true);
  });

  it('never separates the halves of a surrogate pair', () => {
    const text = '😀'.repeat(100);
    const parts = splitText(text, 51);
    for (const p of parts) {
      expect(p.text.length).toBeLessThanOrEqual(51);
      expect(p.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
    expect(joined(parts)).toBe(text);
  });

  it('cuts an atom longer than the limit rather than exceed it', () => {
    const url = `https://example.com/${'a'.repeat(300)}`;
    const parts = splitText(url, 100);
    for (const p of parts) expect(partText(p).length).toBeLessThanOrEqual(100);
    expect(joined(parts)).toBe(url);
  });
});

describe('splitText with a measure of its own, on raw text', () => {
  const atMost = (n: number) => (s: string) => s.length <= n;
  const texts = (parts: Part[]) => parts.map((p) => p.text);

  it('cuts after a line break before a space, and the pieces join back to the text', () => {
    const text = 'one two three\nfour five six\nseven';
    expect(texts(splitText(text, atMost(16), RAW_TEXT))).toEqual(['one two three\n', 'four five six\n', 'seven']);
  });

  it('cuts text without spaces (Chinese, Japanese) after a full stop', () => {
    const text = '本日のデプロイは正常に完了しました。'.repeat(5);
    const parts = texts(splitText(text, atMost(40), RAW_TEXT));
    for (const p of parts.slice(0, -1)) expect(p.endsWith('。')).toBe(true);
    expect(parts.join('')).toBe(text);
  });

  it('keeps a URL whole in raw text, and leaves code fences in raw text as they are', () => {
    const text = 'abc,https://x.example/ab?q=1';
    expect(texts(splitText(text, atMost(26), RAW_CODE))).toEqual(['abc,https://x.example/ab?q', '=1']);
    expect(texts(splitText(text, atMost(26), RAW_TEXT))).toEqual(['abc,', 'https://x.example/ab?q=1']);
    const code = '```\n' + 'x '.repeat(40);
    expect(splitText(code, atMost(30), RAW_CODE).every((p) => p.prefix === '' && p.suffix === '')).toBe(true);
  });

  it('measures with the caller\'s function (bytes, say) and keeps each part within it', () => {
    const bytes = (s: string) => Buffer.byteLength(s, 'utf8') <= 50;
    const text = 'é'.repeat(30) + ' ' + 'ü'.repeat(30);
    const parts = splitText(text, bytes, RAW_TEXT);
    for (const p of parts) expect(bytes(partText(p))).toBe(true);
    expect(joined(parts)).toBe(text);
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

  it('splits a code block between lines, and its pieces join back to the code', () => {
    const pre: Block = { t: 'pre', text: Array.from({ length: 20 }, (_, n) => `line ${n}`).join('\n') };
    const pieces = splitBlock(pre, (b) => size(b) <= 80) as Array<Extract<Block, { t: 'pre' }>>;
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.slice(0, -1).every((p) => p.text.endsWith('\n'))).toBe(true);
    expect(pieces.map((p) => p.text).join('')).toBe(pre.text);
  });
});

describe('splitText, on many generated texts (a property: a seeded generator, so a failure repeats)', () => {
  const ATOM_SAMPLES = [
    '[the log](https://ci.example.com/42)', '<https://ci.example.com/42|the log>', 'https://example.com/a?b=1&c=2',
    '&amp;', '&lt;', '\\*', '`npm ci`', '<!here>',
  ];
  function generate(seed: number): { text: string; atoms: Array<[number, number]> } {
    let x = seed;
    const next = (n: number) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
    let text = '';
    const atoms: Array<[number, number]> = [];
    while (text.length < 1500) {
      const r = next(100);
      if (r < 40) text += ['deploy', 'canary', 'ok', 'rollback'][next(4)] + (next(5) === 0 ? '\n' : ' ');
      else if (r < 55) { const a = ATOM_SAMPLES[next(ATOM_SAMPLES.length)]; atoms.push([text.length, text.length + a.length]); text += `${a} `; }
      else if (r < 62) text += '本日のデプロイは正常に完了しました。';
      else if (r < 66) text += '😀';
      else if (r < 70) text += `\n\`\`\`${next(2) ? 'ts' : ''}\n${Array.from({ length: 3 + next(30) }, (_, i) => `line ${i} &amp; x`).join('\n')}\n\`\`\`\n`;
      else text += 'x'.repeat(next(30)) + ' ';
    }
    return { text, atoms };
  }

  it.each(Array.from({ length: 60 }, (_, i) => i + 1))('seed %i: parts within the limit, joined give back the text, never inside an atom, fences balanced', (seed) => {
    const { text, atoms } = generate(seed);
    for (const limit of [60, 97, 250, 1000]) {
      const parts = splitText(text, limit);
      expect(joined(parts)).toBe(text);
      let at = 0;
      for (const p of parts) {
        expect(partText(p).length).toBeLessThanOrEqual(limit);
        expect((partText(p).match(/```/g) ?? []).length % 2).toBe(0);
        expect(p.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
        at += p.text.length;
        if (at < text.length) for (const [from, to] of atoms) expect(at > from && at < to).toBe(false);
      }
    }
  });
});

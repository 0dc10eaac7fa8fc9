import { htmlDoc, plainText, textDoc } from './html';

describe('htmlDoc', () => {
  it('decodes entities once: a double-encoded entity shows as the entity, never as the character', () => {
    expect(htmlDoc('Tom &amp; Jerry &amp;lt;b&amp;gt; &copy; &#x1F600;')).toEqual([
      { t: 'paragraph', children: [{ t: 'text', text: 'Tom & Jerry &lt;b&gt; © 😀' }] },
    ]);
  });

  it('reads nested formatting, links and code', () => {
    expect(htmlDoc('<b>Build <i>#42</i> <a href="https://ci.example.com/42">passed</a></b> on <code>main</code>')).toEqual([{
      t: 'paragraph',
      children: [
        { t: 'bold', children: [
          { t: 'text', text: 'Build ' },
          { t: 'italic', children: [{ t: 'text', text: '#42' }] },
          { t: 'text', text: ' ' },
          { t: 'link', href: 'https://ci.example.com/42', children: [{ t: 'text', text: 'passed' }] },
        ] },
        { t: 'text', text: ' on ' },
        { t: 'code', text: 'main' },
      ],
    }]);
  });

  it('collapses white space as a browser does, and moves a space out of the formatting it opens', () => {
    expect(htmlDoc('  a \n <b> b </b>c<br>  d  ')).toEqual([{ t: 'paragraph', children: [
      { t: 'text', text: 'a ' }, { t: 'bold', children: [{ t: 'text', text: 'b' }] }, { t: 'text', text: ' c' }, { t: 'br' }, { t: 'text', text: 'd' },
    ] }]);
  });

  it('keeps white space in pre, less the newline after the opening tag', () => {
    expect(htmlDoc('<pre>\nif (a &lt; b) {\n  <b>go</b>();\n}\n</pre>')).toEqual([{ t: 'pre', text: 'if (a < b) {\n  go();\n}' }]);
  });

  it('reads nested lists, and text outside an <li> as an item', () => {
    expect(htmlDoc('<ol><li>one<ul><li>a</li></ul></li><li>two</li>three</ol>')).toEqual([{ t: 'list', ordered: true, items: [
      [{ t: 'paragraph', children: [{ t: 'text', text: 'one' }] }, { t: 'list', ordered: false, items: [[{ t: 'paragraph', children: [{ t: 'text', text: 'a' }] }]] }],
      [{ t: 'paragraph', children: [{ t: 'text', text: 'two' }] }],
      [{ t: 'paragraph', children: [{ t: 'text', text: 'three' }] }],
    ] }]);
  });

  it('reads a table with a header row (thead or th cells) and without', () => {
    expect(htmlDoc('<table><thead><tr><td>A</td></tr></thead><tbody><tr><td><b>1</b></td></tr></tbody></table>')).toEqual([
      { t: 'table', header: true, rows: [[[{ t: 'text', text: 'A' }]], [[{ t: 'bold', children: [{ t: 'text', text: '1' }] }]]] },
    ]);
    expect(htmlDoc('<table><tr><td>x</td><td>y</td></tr></table>')).toEqual([
      { t: 'table', header: false, rows: [[[{ t: 'text', text: 'x' }], [{ t: 'text', text: 'y' }]]] },
    ]);
  });

  it('keeps the text of unknown tags, drops scripts, and links only http(s) and mailto', () => {
    expect(htmlDoc('<p>one <blink>two</blink></p><script>alert(1)</script><a href="javascript:alert(1)">three</a> <a href="mailto:a@example.org">mail</a>')).toEqual([
      { t: 'paragraph', children: [{ t: 'text', text: 'one two' }] },
      { t: 'paragraph', children: [{ t: 'text', text: 'three ' }, { t: 'link', href: 'mailto:a@example.org', children: [{ t: 'text', text: 'mail' }] }] },
    ]);
  });

  it('reads an image with its alt text, and an image without a usable source as its alt', () => {
    expect(htmlDoc('<img src="https://x.example/a.png" alt="chart"><img src="data:image/png;base64,AA" alt="inline">')).toEqual([
      { t: 'paragraph', children: [{ t: 'image', src: 'https://x.example/a.png', alt: 'chart' }, { t: 'text', text: 'inline' }] },
    ]);
  });

  it('keeps line breaks of a block inside formatting outside it', () => {
    expect(htmlDoc('a <b><p>x</p></b> b')).toEqual([{ t: 'paragraph', children: [
      { t: 'text', text: 'a' }, { t: 'br' }, { t: 'bold', children: [{ t: 'text', text: 'x' }] }, { t: 'br' }, { t: 'text', text: 'b' },
    ] }]);
  });

  it('gives an empty Doc for markup without text', () => {
    expect(htmlDoc('<p> </p><br><b></b>')).toEqual([]);
  });
});

describe('textDoc', () => {
  it('keeps mentions, emoticons, links and markup-like text as written; newlines break lines, blank lines paragraphs', () => {
    expect(textDoc('@ada (thumbsup) see https://example.com/?a=1&b=2 <b>\nnext line\r\n\r\n\npara')).toEqual([
      { t: 'paragraph', children: [{ t: 'text', text: '@ada (thumbsup) see https://example.com/?a=1&b=2 <b>' }, { t: 'br' }, { t: 'text', text: 'next line' }] },
      { t: 'paragraph', children: [{ t: 'text', text: 'para' }] },
    ]);
  });
});

describe('plainText', () => {
  it('shows a link with its address, a list with bullets', () => {
    expect(plainText(htmlDoc('<a href="https://a.example">here</a><ul><li>x</li></ul>'))).toBe('here (https://a.example)\n\n- x');
  });
});

import { EMOTICONS, findEmoticon, type Emoticon } from './catalogue';
import {
  emoticonColours,
  emoticonDetail,
  emoticonListItem,
  emoticonPresentation,
  emoticonSvg,
  escapeXml,
} from './emoticon-image';

const BASE = 'https://chat.example.com';
const allthethings = findEmoticon('allthethings')!;

/**
 * Minimal well-formedness check: balanced tags, quoted attributes without raw `<`/`&`,
 * text without raw `<`, and `&` only as a known or numeric entity.
 */
function assertWellFormedXml(xml: string): void {
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/g;
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    expect(text.replace(entity, '')).not.toMatch(/[&>]/);
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) throw new Error(`malformed tag at ${lt}: ${xml.slice(lt, lt + 40)}`);
    const [whole, closing, name, attrs, selfClosing] = m;
    expect(attrs.replace(entity, '')).not.toMatch(/&/);
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name);
    i = lt + whole.length;
  }
  expect(stack).toEqual([]);
}

describe('escapeXml', () => {
  it('escapes markup characters and non-ASCII', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(escapeXml('\u2665 \u{1F600}')).toBe('&#x2665; &#x1F600;');
    expect(escapeXml('a\u0000b')).toBe('ab');
  });
});

describe('emoticonSvg', () => {
  it('draws a well-formed SVG for every emoticon', () => {
    for (const e of EMOTICONS) {
      const svg = emoticonSvg(e);
      expect(svg.startsWith('<svg ')).toBe(true);
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
      expect(svg).toContain(`width="${e.width}" height="${e.height}"`);
      expect(svg).toContain(`<title>(${e.shortcut})</title>`);
      expect(svg).toMatch(/^[\x20-\x7e]*$/); // ASCII only: safe whatever charset a client assumes
      assertWellFormedXml(svg);
    }
  });

  it('gives each emoticon a distinct image', () => {
    const svgs = EMOTICONS.map(emoticonSvg);
    expect(new Set(svgs).size).toBe(EMOTICONS.length);
  });

  it('is deterministic', () => {
    expect(emoticonSvg(allthethings)).toBe(emoticonSvg({ ...allthethings }));
    expect(emoticonColours('awyeah')).toEqual(emoticonColours('awyeah'));
  });

  it('derives varied colours from the shortcut', () => {
    const fills = new Set(EMOTICONS.map((e) => emoticonColours(e.shortcut).fill));
    expect(fills.size).toBeGreaterThan(EMOTICONS.length / 2);
    for (const f of fills) expect(f).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('uses symbol glyphs, escaped, where defined', () => {
    expect(emoticonSvg(findEmoticon('heart')!)).toContain('>&#x2665;</text>');
    expect(emoticonSvg(findEmoticon('cake')!)).toContain('>Ca</text>');
  });

  it('escapes text it did not choose', () => {
    const odd: Emoticon = { id: 999, shortcut: 'a&<b>"\'', type: 'global', width: 30, height: 30 };
    const svg = emoticonSvg(odd);
    assertWellFormedXml(svg);
    expect(svg).not.toContain('a&<b>');
  });
});

describe('presentation shapes', () => {
  it('emoticonPresentation builds url and self link from the base URL', () => {
    expect(emoticonPresentation(allthethings, BASE)).toEqual({
      id: 1,
      shortcut: 'allthethings',
      type: 'global',
      url: `${BASE}/emoticons/allthethings.svg`,
      width: allthethings.width,
      height: allthethings.height,
      links: { self: `${BASE}/v2/emoticon/1` },
    });
  });

  it('emoticonListItem has exactly the list keys', () => {
    const item = emoticonListItem(allthethings, BASE);
    expect(Object.keys(item).sort()).toEqual(['id', 'links', 'shortcut', 'url']);
    expect(item).toEqual({
      id: 1,
      links: { self: `${BASE}/v2/emoticon/1` },
      shortcut: 'allthethings',
      url: `${BASE}/emoticons/allthethings.svg`,
    });
  });

  it('emoticonDetail has the single-emoticon keys with audio_path null', () => {
    const detail = emoticonDetail(allthethings, BASE);
    expect(Object.keys(detail).sort()).toEqual(['audio_path', 'height', 'id', 'links', 'shortcut', 'type', 'url', 'width']);
    expect(detail.audio_path).toBeNull();
    expect(detail).toEqual({ ...emoticonPresentation(allthethings, BASE), audio_path: null });
    expect(JSON.parse(JSON.stringify(detail))).toEqual(detail);
  });
});

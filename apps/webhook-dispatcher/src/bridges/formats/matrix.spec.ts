import { COLORS } from './colors';
import { Parser } from 'htmlparser2';
import { MATRIX_CONTENT_MAX_BYTES, MATRIX_PERMITTED_HTML, matrix } from './matrix';
import { CASES, goldenCheck, longText, MATRIX_ROOM } from './__golden__/rich-cases';
import { jsonBytes } from './split';
import type { PlatformPost } from './types';

const target = { kind: 'matrix' as const, matrixRoomId: MATRIX_ROOM };

/** Every tag and attribute of a formatted_body, as a browser-grade parser reads it. */
function elements(html: string): Array<{ name: string; attrs: Record<string, string> }> {
  const found: Array<{ name: string; attrs: Record<string, string> }> = [];
  const parser = new Parser({ onopentag: (name, attrs) => found.push({ name, attrs }) }, { decodeEntities: true, lowerCaseTags: true });
  parser.write(html);
  parser.end();
  return found;
}

function decodedText(html: string): string {
  let out = '';
  const parser = new Parser({ ontext: (t) => (out += t), onopentag: (name) => name === 'br' && (out += '\n') }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out;
}

const content = (post: PlatformPost) => post.body as { msgtype: string; body: string; format: string; formatted_body: string };

describe('matrix format', () => {
  describe.each(goldenCheck('matrix', matrix))('%s', (_name, posts, golden) => {
    it('matches its golden payload', () => {
      expect(posts).toEqual(golden);
    });

    it('uses only the tags and attributes the Matrix spec permits, http images as links', () => {
      for (const post of posts) {
        for (const el of elements(content(post).formatted_body)) {
          expect(Object.keys(MATRIX_PERMITTED_HTML)).toContain(el.name);
          for (const attr of Object.keys(el.attrs)) expect(MATRIX_PERMITTED_HTML[el.name]).toContain(attr);
          if (el.name === 'img') expect(el.attrs.src).toMatch(/^mxc:\/\//);
          if (el.name === 'a') expect(el.attrs.href).toMatch(/^(https?|ftp|mailto|magnet):/);
          if (el.name === 'font') expect(el.attrs['data-mx-color']).toMatch(/^#[0-9a-f]{6}$/);
        }
      }
    });

    it('is a PUT of an m.room.message within the event size limit, with a transaction id of its own', () => {
      const txnIds = posts.map((post) => {
        expect(post.method).toBe('PUT');
        const m = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(post.path);
        expect(m).not.toBeNull();
        expect(decodeURIComponent(m![1])).toBe(MATRIX_ROOM);
        expect(content(post).format).toBe('org.matrix.custom.html');
        expect(jsonBytes(post.body)).toBeLessThanOrEqual(MATRIX_CONTENT_MAX_BYTES);
        return m![2];
      });
      expect(new Set(txnIds).size).toBe(txnIds.length);
    });
  });

  it('sends integration notifications as m.notice and people\'s messages as m.text, never mixed in one event', () => {
    const posts = matrix(CASES.coalesced, target);
    expect(posts.map((p) => content(p).msgtype)).toEqual(['m.notice', 'm.text']);
    expect(content(posts[0]).formatted_body).toContain('Build #43 failed');
    expect(content(posts[0]).formatted_body).toContain('Build #44 passed');
  });

  it('derives the transaction id from the delivery, so a retried post is the same event', () => {
    const [first] = matrix(CASES['message-text'], target);
    const [again] = matrix(CASES['message-text'], target);
    expect(first.path).toBe(again.path);
    expect(first.path.endsWith(`/${encodeURIComponent(`${CASES['message-text'][0].deliveryId}.0`)}`)).toBe(true);
  });

  it('escapes text once: what people wrote reads back as written, never as &amp;', () => {
    const [post] = matrix(CASES.entities, target);
    expect(decodedText(content(post).formatted_body)).toBe('● Build bot: Tom & Jerry <3 "quotes" \'apos\' © &amp; stays literal');
    expect(content(post).body).toBe('Build bot: Tom & Jerry <3 "quotes" \'apos\' © &amp; stays literal');
  });

  it('shows the colour as data-mx-color and drops a javascript: link to its text', () => {
    expect(content(matrix(CASES['color-red'], target)[0]).formatted_body).toContain(`<font data-mx-color="${COLORS.red.hex}">●</font>`);
    const links = content(matrix(CASES.links, target)[0]).formatted_body;
    expect(links).not.toContain('javascript:');
    expect(links).toContain('not a link');
  });

  it('keeps a 10,000-character message whole, split into events at line boundaries when it is too large for one', () => {
    const whole = matrix(CASES['long-10000'], target);
    expect(whole).toHaveLength(1);
    expect(content(whole[0]).body).toBe(`Ada Lovelace: ${longText()}`);

    const cjk = matrix(CASES['long-cjk'], target);
    expect(cjk.length).toBeGreaterThan(1);
    const original = (CASES['long-cjk'][0].body[0] as { children: Array<{ text: string }> }).children[0].text;
    expect(cjk.map((p) => content(p).body).join('')).toBe(`Ada Lovelace: ${original}`);
  });

  it('refuses a target without a room', () => {
    expect(() => matrix(CASES.enter, { kind: 'matrix', matrixRoomId: null })).toThrow(/matrixRoomId/);
  });
});

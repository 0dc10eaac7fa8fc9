import { COLORS } from './colors';
import { Parser } from 'htmlparser2';
import { caseMessages, LONG_CJK, LONG_LINKS, MATRIX_ROOM } from './__golden__/cases';
import { matrix } from './matrix';
import type { PlatformPost } from './types';

const target = { kind: 'matrix' as const, matrixRoomId: MATRIX_ROOM };

function decodedText(html: string): string {
  let out = '';
  const parser = new Parser({ ontext: (t) => (out += t), onopentag: (name) => name === 'br' && (out += '\n') }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out;
}

const content = (post: PlatformPost) => post.body as { msgtype: string; body: string; format: string; formatted_body: string };

describe('matrix format', () => {
  it('sends integration notifications as m.notice and people\'s messages as m.text, never mixed in one event', () => {
    const posts = matrix(caseMessages('coalesced'), target);
    expect(posts.map((p) => content(p).msgtype)).toEqual(['m.notice', 'm.text']);
    expect(content(posts[0]).formatted_body).toContain('Build #43 failed');
    expect(content(posts[0]).formatted_body).toContain('Build #44 passed');
  });

  it('derives the transaction id from the delivery, so a retried post is the same event', () => {
    const [message] = caseMessages('message-user');
    const [first] = matrix([message], target);
    const [again] = matrix([message], target);
    expect(first.path).toBe(again.path);
    expect(first.path.endsWith(`/${encodeURIComponent(`${message.deliveryId}.0`)}`)).toBe(true);
  });

  it('escapes text once: what people wrote reads back as written, never as &amp;', () => {
    const [post] = matrix(caseMessages('html-entities'), target);
    expect(decodedText(content(post).formatted_body)).toBe('● Tom & Jerry <3 &lt;b&gt; "quoted" © 🚀 5 > 3');
    expect(content(post).body).toBe('Tom & Jerry <3 &lt;b&gt; "quoted" © 🚀 5 > 3');
  });

  it('shows the colour as data-mx-color and drops a javascript: link to its text', () => {
    expect(content(matrix(caseMessages('color-red'), target)[0]).formatted_body).toContain(`<font data-mx-color="${COLORS.red.hex}">●</font>`);
    // HipChat html never carries one (html.ts drops it), but a card's link could: the format holds its own line.
    const [message] = caseMessages('html-links');
    const body = [{ t: 'paragraph' as const, children: [{ t: 'link' as const, href: 'javascript:alert(1)', children: [{ t: 'text' as const, text: 'not a link' }] }] }];
    const links = content(matrix([{ ...message, body }], target)[0]).formatted_body;
    expect(links).not.toContain('javascript:');
    expect(links).toContain('not a link');
  });

  it('keeps a 10,000-character message whole, split into events at line boundaries when it is too large for one', () => {
    const whole = matrix(caseMessages('long-links'), target);
    expect(whole).toHaveLength(1);
    expect(content(whole[0]).body).toBe(`Ada Lovelace: ${LONG_LINKS}`);

    const cjk = matrix(caseMessages('long-cjk'), target);
    expect(cjk.length).toBeGreaterThan(1);
    expect(cjk.map((p) => content(p).body).join('')).toBe(`Ada Lovelace: ${LONG_CJK}`);
  });

  it('refuses a target without a room', () => {
    expect(() => matrix(caseMessages('enter'), { kind: 'matrix', matrixRoomId: null })).toThrow(/matrixRoomId/);
  });
});

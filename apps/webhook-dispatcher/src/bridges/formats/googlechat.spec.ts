import { caseMessages, LONG_LINKS } from './__golden__/cases';
import { googlechat } from './googlechat';
import type { PlatformPost } from './types';

const target = { kind: 'googlechat' as const, matrixRoomId: null };

type Body = { text?: string; cardsV2?: Array<{ cardId: string; card: { header?: Record<string, string>; sections: Array<{ widgets: Array<Record<string, unknown>> }> } }> };
const body = (post: PlatformPost) => post.body as Body;

describe('googlechat format', () => {
  it('names the sender in bold before the text, since a webhook posts under its own name', () => {
    expect(body(googlechat(caseMessages('notification-html'), target)[0]).text).toBe('*Build bot*: *Build #42* passed on <https://ci.example.com/42|main>\nAll _1,024_ tests green');
  });

  it('leaves out a card\'s address that is not a web address', () => {
    const [message] = caseMessages('card');
    const [post] = googlechat([{ ...message, card: { ...message.card!, url: 'javascript:alert(1)', thumbnail: 'mxc://example.org/t' } }], target);
    expect(JSON.stringify(post.body)).not.toMatch(/javascript:|mxc:/);
  });

  it('keeps a bridged "<users/all>" from notifying the whole space', () => {
    const text = body(googlechat(caseMessages('mentions'), target)[0]).text!;
    expect(text).not.toContain('<users/all>');
    expect(text.replace(/\u200b/g, '')).toContain('<users/all>');
  });

  it('keeps the room\'s order: text after a card starts a new post', () => {
    const posts = googlechat([caseMessages('card')[0], caseMessages('coalesced')[2]], target);
    expect(posts.map((p) => Object.keys(p.body))).toEqual([['cardsV2'], ['text']]);
    const [before, after] = googlechat([caseMessages('coalesced')[2], caseMessages('card')[0]], target);
    expect(Object.keys(before.body)).toEqual(['text', 'cardsV2']);
    expect(after).toBeUndefined();
  });

  it('puts coalesced text messages into one post, in order', () => {
    const posts = googlechat(caseMessages('coalesced'), target);
    expect(posts).toHaveLength(1);
    expect(body(posts[0]).text).toBe('*Build bot*: Build #43 failed\n*Build bot*: Build #44 passed\n*Ada Lovelace*: Thanks, all green again');
  });

  it('delivers a 10,000-character message whole, in posts of at most 4,096 characters split at line ends', () => {
    const posts = googlechat(caseMessages('long-links'), target);
    expect(posts.length).toBe(3);
    const texts = posts.map((p) => body(p).text!);
    expect(texts.join('')).toBe(`*Ada Lovelace*: ${LONG_LINKS}`);
    for (const t of texts.slice(0, -1)) expect(t.endsWith('\n')).toBe(true);
  });
});

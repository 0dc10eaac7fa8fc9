import { GOOGLE_CHAT_POST_MAX_BYTES, GOOGLE_CHAT_TEXT_MAX, googlechat } from './googlechat';
import { CASES, goldenCheck, longText } from './__golden__/rich-cases';
import { jsonBytes } from './split';
import type { PlatformPost } from './types';

const target = { kind: 'googlechat' as const, matrixRoomId: null };

type Body = { text?: string; cardsV2?: Array<{ cardId: string; card: { header?: Record<string, string>; sections: Array<{ widgets: Array<Record<string, unknown>> }> } }> };
const body = (post: PlatformPost) => post.body as Body;

/** The widget kinds of cards v2 this format uses (https://developers.google.com/workspace/chat/api/reference/rest/v1/cards#widget). */
const WIDGETS = ['textParagraph', 'decoratedText', 'image', 'buttonList'];

describe('googlechat format', () => {
  describe.each(goldenCheck('googlechat', googlechat))('%s', (_name, posts, golden) => {
    it('matches its golden payload', () => {
      expect(posts).toEqual(golden);
    });

    it('keeps Chat\'s documented sizes: text 4,096 characters, a message 32,000 bytes', () => {
      for (const post of posts) {
        expect(post).toMatchObject({ method: 'POST', path: '' });
        expect((body(post).text ?? '').length).toBeLessThanOrEqual(GOOGLE_CHAT_TEXT_MAX);
        expect(jsonBytes(post.body)).toBeLessThanOrEqual(GOOGLE_CHAT_POST_MAX_BYTES);
        expect(body(post).text || body(post).cardsV2).toBeTruthy();
      }
    });

    it('builds cards of cardsV2 widgets, each card with an id of its own', () => {
      const cards = posts.flatMap((p) => body(p).cardsV2 ?? []);
      expect(new Set(cards.map((c) => c.cardId)).size).toBe(cards.length);
      for (const c of cards) {
        for (const w of c.card.sections.flatMap((s) => s.widgets)) expect(WIDGETS).toContain(Object.keys(w)[0]);
      }
    });
  });

  it('names the sender in bold before the text, since a webhook posts under its own name', () => {
    expect(body(googlechat(CASES['notification-html'], target)[0]).text).toBe('*Build bot*: *Build #42* passed on <https://ci.example.com/42|main>\nAll _1,024_ tests green');
  });

  it('leaves out a card\'s address that is not a web address', () => {
    const [message] = CASES.card;
    const [post] = googlechat([{ ...message, card: { ...message.card!, url: 'javascript:alert(1)', thumbnail: 'mxc://example.org/t' } }], target);
    expect(JSON.stringify(post.body)).not.toMatch(/javascript:|mxc:/);
  });

  it('keeps a bridged "<users/all>" from notifying the whole space', () => {
    const text = body(googlechat(CASES.mentions, target)[0]).text!;
    expect(text).not.toContain('<users/all>');
    expect(text.replace(/\u200b/g, '')).toContain('<users/all>');
  });

  it('keeps the room\'s order: text after a card starts a new post', () => {
    const posts = googlechat([CASES.card[0], CASES.coalesced[2]], target);
    expect(posts.map((p) => Object.keys(p.body))).toEqual([['cardsV2'], ['text']]);
    const [before, after] = googlechat([CASES.coalesced[2], CASES.card[0]], target);
    expect(Object.keys(before.body)).toEqual(['text', 'cardsV2']);
    expect(after).toBeUndefined();
  });

  it('puts coalesced text messages into one post, in order', () => {
    const posts = googlechat(CASES.coalesced, target);
    expect(posts).toHaveLength(1);
    expect(body(posts[0]).text).toBe('*Build bot*: Build #43 failed\n*Build bot*: Build #44 passed\n*Ada Lovelace*: Thanks, all green again');
  });

  it('delivers a 10,000-character message whole, in posts of at most 4,096 characters split at line ends', () => {
    const posts = googlechat(CASES['long-10000'], target);
    expect(posts.length).toBe(3);
    const texts = posts.map((p) => body(p).text!);
    expect(texts.join('')).toBe(`*Ada Lovelace*: ${longText()}`);
    for (const t of texts.slice(0, -1)) expect(t.endsWith('\n')).toBe(true);
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { cardOf, cardProblems } from './__golden__/adaptive-cards';
import { CASE_NAMES, caseMessages, LONG_TEXT, MATRIX_ROOM, target } from './__golden__/cases';
import { COLORS } from './colors';
import { FORMATS } from './index';
import { toBridgeMessage } from './message';
import { jsonBytes } from './split';
import type { PlatformPost } from './types';

/**
 * Golden payloads: what each of the seven platforms receives for each case of the one case
 * set (__golden__/cases.ts: room events' items through toBridgeMessage), kept in
 * __golden__/<platform>/<case>.json and read by a person when written
 * (`UPDATE_GOLDEN=1 npx jest apps/webhook-dispatcher/src/bridges/formats/formats.golden --selectProjects unit`
 * rewrites them: review the diff before committing). The rule checks below hold for every
 * case, whatever the files say, so a golden file cannot make a payload break a platform's
 * documented rule.
 */

const GOLDEN = join(__dirname, '__golden__');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const PLATFORMS = ['slack', 'mattermost', 'rocketchat', 'discord', 'teams', 'googlechat', 'matrix'] as const;
type Platform = (typeof PLATFORMS)[number];
/** The platforms whose post is a text above attachments (embeds), posted to the webhook URL itself. */
const MARKDOWN = ['slack', 'mattermost', 'rocketchat', 'discord'] as const;
const render = (platform: Platform, name: string): PlatformPost[] => FORMATS[platform](caseMessages(name), target(platform));

describe.each(PLATFORMS)('%s golden payloads', (platform) => {
  it.each(CASE_NAMES)('%s', (name) => {
    const posts = render(platform, name);
    const file = join(GOLDEN, platform, `${name}.json`);
    const text = `${JSON.stringify(posts, null, 2)}\n`;
    if (UPDATE) {
      mkdirSync(join(GOLDEN, platform), { recursive: true });
      writeFileSync(file, text);
    }
    expect(existsSync(file)).toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });
});

// ---- rules that hold for every case ----

/**
 * The platforms' documented limits, written here again rather than imported: a wrong
 * constant in a format must fail these checks, not move them.
 */
const DISCORD_LIMITS = { content: 2000, embeds: 10, total: 6000, title: 256, description: 4096, fieldName: 256, fieldValue: 1024, fields: 25, footer: 2048 };
const SLACK_LIMITS = { text: 40_000, attachments: 20 };
const MATTERMOST_LIMITS = { text: 16_383 };
const ROCKETCHAT_LIMITS = { text: 5_000 };

const allPosts = (platform: Platform) => CASE_NAMES.map((name) => ({ name, posts: render(platform, name) }));

/** Every string under the given keys, anywhere in a body. */
function stringsAt(value: unknown, keys: ReadonlySet<string>, out: string[] = [], key = ''): string[] {
  if (typeof value === 'string') { if (keys.has(key)) out.push(value); }
  else if (Array.isArray(value)) value.forEach((v) => stringsAt(v, keys, out, key));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) stringsAt(v, keys, out, k);
  return out;
}

describe('Discord: every post within every documented limit', () => {
  // https://discord.com/developers/docs/resources/message#embed-object-embed-limits
  it.each(CASE_NAMES)('%s', (name) => {
    for (const { body } of render('discord', name)) {
      expect(body.allowed_mentions).toEqual({ parse: [] });
      expect(body.content !== undefined || body.embeds !== undefined).toBe(true);
      if (body.content !== undefined) expect((body.content as string).length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
      if (body.username !== undefined) {
        const u = body.username as string;
        expect(u.length).toBeGreaterThan(0);
        expect(u.length).toBeLessThanOrEqual(80);
        expect(u).not.toMatch(/discord|clyde|[@#:]|```|^(everyone|here)$/i);
      }
      const embeds = (body.embeds ?? []) as Array<Record<string, any>>;
      expect(embeds.length).toBeLessThanOrEqual(DISCORD_LIMITS.embeds);
      let total = 0;
      for (const e of embeds) {
        const fields = (e.fields ?? []) as Array<{ name: string; value: string }>;
        expect((e.title ?? '').length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
        expect((e.description ?? '').length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
        expect(fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
        for (const f of fields) {
          expect(f.name.length).toBeGreaterThan(0);
          expect(f.name.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
          expect(f.value.length).toBeGreaterThan(0);
          expect(f.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
        }
        expect((e.footer?.text ?? '').length).toBeLessThanOrEqual(DISCORD_LIMITS.footer);
        if (e.color !== undefined) expect(Number.isInteger(e.color) && e.color >= 0 && e.color <= 0xffffff).toBe(true);
        total += (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text ?? '').length
          + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
      }
      expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.total);
    }
  });
});

describe('Slack: text escapes exactly &, < and >, and stays within the limits', () => {
  // https://api.slack.com/reference/surfaces/formatting#escaping
  const TEXT_KEYS = new Set(['text', 'fallback', 'title', 'value', 'footer', 'pretext']);
  const LINK = /<(?:https?:|mailto:)[^\s<>|]+(?:\|[^<>|]*)?>/g;
  it.each(CASE_NAMES)('%s', (name) => {
    for (const { body } of render('slack', name)) {
      for (const s of stringsAt(body, TEXT_KEYS)) {
        const outsideLinks = s.replace(LINK, '');
        expect(outsideLinks).not.toMatch(/[<>]/);
        expect(s.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
      }
      expect(((body.text ?? '') as string).length).toBeLessThanOrEqual(SLACK_LIMITS.text);
      expect(((body.attachments ?? []) as unknown[]).length).toBeLessThanOrEqual(SLACK_LIMITS.attachments);
      const colors = ((body.attachments ?? []) as Array<{ color?: string }>).flatMap((a) => (a.color ? [a.color] : []));
      for (const c of colors) expect(c).toMatch(/^(good|warning|danger|#[0-9a-f]{6})$/);
    }
  });
});

describe.each([
  ['mattermost', MATTERMOST_LIMITS.text],
  ['rocketchat', ROCKETCHAT_LIMITS.text],
  ['discord', DISCORD_LIMITS.content],
] as const)('%s: literal characters, never an entity, within %i characters', (platform, limit) => {
  it.each(CASE_NAMES)('%s', (name) => {
    for (const { body } of render(platform, name)) {
      const text = ((body.text ?? body.content ?? '') as string);
      expect(text.length).toBeLessThanOrEqual(limit);
      for (const s of stringsAt(body, new Set(['text', 'content', 'description', 'title', 'value', 'fallback']))) {
        expect(s).not.toMatch(/&amp;|&quot;|&#\d+;/);
      }
      // Discord's allowed_mentions keeps them silent; the others have no such switch.
      if (platform !== 'discord') {
        for (const s of stringsAt(body, new Set(['text']))) expect(s).not.toMatch(/(^|[^\w@])@(all|channel|here|everyone)\b/i);
      }
    }
  });
});

describe('every format', () => {
  it.each(MARKDOWN)('%s: posts to the webhook URL itself', (platform) => {
    for (const { posts } of allPosts(platform)) for (const p of posts) expect(p).toMatchObject({ method: 'POST', path: '' });
  });

  it.each(MARKDOWN)('%s: a 10,000-character message arrives whole, in order, as consecutive posts', (platform) => {
    const posts = render(platform, 'long-10000');
    const texts = posts.map((p) => (p.body.text ?? p.body.content) as string);
    expect(texts.join('')).toBe(LONG_TEXT);
    if (platform === 'discord') expect(posts.length).toBeGreaterThanOrEqual(5);
    for (const t of texts) expect(t).not.toMatch(/\(\d+\/\d+\)/);
  });

  it.each([
    ['slack', 'Tom &amp; Jerry &lt;3 &amp;lt;b&amp;gt; "quoted" © 🚀 5 &gt; 3'],
    ['mattermost', 'Tom & Jerry \\<3 &lt;b&gt; "quoted" © 🚀 5 > 3'],
    ['discord', 'Tom & Jerry \\<3 &lt;b&gt; "quoted" © 🚀 5 > 3'],
    ['rocketchat', 'Tom & Jerry <3 &lt;b&gt; "quoted" © 🚀 5 > 3'],
  ] as const)('%s: the entities case shows each character decoded once', (platform, expected) => {
    const [post] = render(platform, 'html-entities');
    const [first] = (post.body.attachments ?? post.body.embeds) as Array<{ text?: string; description?: string }>;
    expect(first.text ?? first.description).toBe(expected);
  });

  it('colours come from the one table', () => {
    expect(render('discord', 'color-purple')[0].body.embeds).toEqual([expect.objectContaining({ color: COLORS.purple.int })]);
    expect(render('mattermost', 'color-red')[0].body.attachments).toEqual([expect.objectContaining({ color: COLORS.red.hex })]);
    expect(render('slack', 'color-red')[0].body.attachments).toEqual([expect.objectContaining({ color: 'danger' })]);
    expect(render('slack', 'color-gray')[0].body.attachments).toEqual([expect.objectContaining({ color: COLORS.gray.hex })]);
  });

  it.each(MARKDOWN)('%s: a burst is coalesced into one post per run of one sender, in order', (platform) => {
    const posts: PlatformPost[] = render(platform, 'burst');
    const name = (p: PlatformPost) => p.body.username ?? p.body.alias;
    expect(posts.map(name)).toEqual(['CI', 'Ada Lovelace', 'CI']);
    expect(JSON.stringify(posts).indexOf('started')).toBeLessThan(JSON.stringify(posts).indexOf('finished'));
    expect(posts[1].body.text ?? posts[1].body.content).toBe('nice\nthanks all');
  });
});

describe('a burst of fifty people\'s short messages arrives as few posts, every line saying who wrote it', () => {
  // Issue 35 §6: 500 messages in 10 s to a platform allowing one post a second arrive within
  // 15 s only if a post carries many messages. Discord's 2,000 characters hold about 40 of these lines.
  const MOST_POSTS: Record<Platform, number> = { slack: 1, mattermost: 1, rocketchat: 1, discord: 2, teams: 1, googlechat: 1, matrix: 1 };
  it.each(PLATFORMS)('%s', (platform) => {
    const posts = render(platform, 'burst-senders');
    expect(posts.length).toBeLessThanOrEqual(MOST_POSTS[platform]);
    const all = JSON.stringify(posts);
    let at = -1;
    for (let i = 1; i <= 50; i++) {
      const next = all.indexOf(`status ${i}:`);
      expect(next).toBeGreaterThan(at);
      at = next;
    }
    for (const name of ['Ada Lovelace', 'Grace Hopper', 'Barbara Liskov']) expect(all).toContain(name);
    // A post shared by several senders names none of them as its own.
    if ((MARKDOWN as readonly string[]).includes(platform)) for (const p of posts) expect(p.body.username ?? p.body.alias).toBeUndefined();
  });
});

describe('the bridge-burst of issue 35 §6: 500 short messages of five people', () => {
  // One Slack post a second must carry a whole second's messages and more: 500 in one post
  // (about 22,000 of Slack's 40,000 characters); the others as few as their sizes allow.
  const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov'];
  const burst = Array.from({ length: 500 }, (_, i) => toBridgeMessage({
    event: 'room_message', deliveryId: `b-${i}`,
    item: { room: { name: 'Ops' }, message: { from: { name: names[i % 5] }, message: `message ${i} of the burst, all good` } },
  }));
  const MOST_POSTS: Record<Platform, number> = { slack: 1, mattermost: 2, rocketchat: 6, discord: 15, teams: 5, googlechat: 7, matrix: 2 };
  it.each(PLATFORMS)('%s', (platform) => {
    const posts = FORMATS[platform](burst, target(platform));
    expect(posts.length).toBeLessThanOrEqual(MOST_POSTS[platform]);
    const all = JSON.stringify(posts);
    expect(all.indexOf('message 499 of')).toBeGreaterThan(all.indexOf('message 0 of'));
    for (let i = 0; i < 500; i++) expect(all).toContain(`message ${i} of the burst`);
  });
});

// ---- Teams ----------------------------------------------------------------------------

describe('Teams: a message envelope whose Adaptive Card the library parses without a warning, within 28 KB and clear of it', () => {
  // https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook
  it.each(CASE_NAMES)('%s', (name) => {
    for (const post of render('teams', name)) {
      expect(post).toMatchObject({ method: 'POST', path: '', body: { type: 'message' } });
      expect(cardProblems(cardOf(post))).toEqual([]);
      expect(jsonBytes(post.body)).toBeLessThanOrEqual(20_000);
    }
  });

  it('the library does report a bad card (the check above can fail)', () => {
    expect(cardProblems({ version: '1.4', body: [{ type: 'Container', style: 'bogus', items: [] }] })).toEqual(['Invalid value "bogus" for property "style".']);
    expect(cardProblems({ version: '1.4', body: [{ type: 'Container', items: [{ type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: 'Open' }] }] }] })).toEqual(['Property "url" must be set.']);
    // A Table in a 1.4 card: the version the card declares is the one it is checked against.
    expect(cardProblems({ version: '1.4', body: [{ type: 'Container', items: [{ type: 'Table', columns: [{ width: 1 }], rows: [] }] }] })).toEqual([
      'Unknown element type "Table". Fallback will be used if present.',
    ]);
  });
});

// ---- Google Chat ----------------------------------------------------------------------

/** The widget kinds of cards v2 the format uses (https://developers.google.com/workspace/chat/api/reference/rest/v1/cards#widget). */
const WIDGETS = ['textParagraph', 'decoratedText', 'image', 'buttonList'];
type ChatBody = { text?: string; cardsV2?: Array<{ cardId: string; card: { sections: Array<{ widgets: Array<Record<string, unknown>> }> } }> };

describe('Google Chat: text of 4,096 characters, a message of 32,000 bytes, cards of cardsV2 widgets with ids of their own', () => {
  // https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages
  it.each(CASE_NAMES)('%s', (name) => {
    const posts = render('googlechat', name);
    for (const post of posts) {
      const body = post.body as ChatBody;
      expect(post).toMatchObject({ method: 'POST', path: '' });
      expect((body.text ?? '').length).toBeLessThanOrEqual(4_096);
      expect(jsonBytes(post.body)).toBeLessThanOrEqual(32_000);
      expect(body.text || body.cardsV2).toBeTruthy();
    }
    const cards = posts.flatMap((p) => (p.body as ChatBody).cardsV2 ?? []);
    expect(new Set(cards.map((c) => c.cardId)).size).toBe(cards.length);
    for (const c of cards) for (const w of c.card.sections.flatMap((s) => s.widgets)) expect(WIDGETS).toContain(Object.keys(w)[0]);
  });
});

// ---- Matrix ---------------------------------------------------------------------------

/**
 * The tags the Matrix spec permits in `formatted_body` and each one's attributes
 * (https://spec.matrix.org/v1.11/client-server-api/#mroommessage-msgtypes), written here
 * again rather than imported: a wrong list in the format must fail this check.
 */
const MATRIX_TAGS: Record<string, readonly string[]> = {
  font: ['data-mx-bg-color', 'data-mx-color', 'color'], del: [], h1: [], h2: [], h3: [], h4: [], h5: [], h6: [], blockquote: [], p: [],
  a: ['name', 'target', 'href'], ul: [], ol: ['start'], sup: [], sub: [], li: [], b: [], i: [], u: [], strong: [], em: [], strike: [],
  code: ['class'], hr: [], br: [], div: [], table: [], thead: [], tbody: [], tr: [], th: [], td: [], caption: [], pre: [],
  span: ['data-mx-bg-color', 'data-mx-color', 'data-mx-spoiler'], img: ['width', 'height', 'alt', 'title', 'src'], details: [], summary: [],
};

function elements(html: string): Array<{ name: string; attrs: Record<string, string> }> {
  const found: Array<{ name: string; attrs: Record<string, string> }> = [];
  const parser = new Parser({ onopentag: (name, attrs) => found.push({ name, attrs }) }, { decodeEntities: true, lowerCaseTags: true });
  parser.write(html);
  parser.end();
  return found;
}

describe('Matrix: permitted tags only, a PUT of an m.room.message within the event size, a transaction id each', () => {
  it.each(CASE_NAMES)('%s', (name) => {
    const posts = render('matrix', name);
    const txnIds = posts.map((post) => {
      const body = post.body as { msgtype: string; format: string; formatted_body: string };
      for (const el of elements(body.formatted_body)) {
        expect(Object.keys(MATRIX_TAGS)).toContain(el.name);
        for (const attr of Object.keys(el.attrs)) expect(MATRIX_TAGS[el.name]).toContain(attr);
        if (el.name === 'img') expect(el.attrs.src).toMatch(/^mxc:\/\//);
        if (el.name === 'a') expect(el.attrs.href).toMatch(/^(https?|ftp|mailto|magnet):/);
        if (el.name === 'font') expect(el.attrs['data-mx-color']).toMatch(/^#[0-9a-f]{6}$/);
      }
      expect(post.method).toBe('PUT');
      const m = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(post.path);
      expect(m).not.toBeNull();
      expect(decodeURIComponent(m![1])).toBe(MATRIX_ROOM);
      expect(['m.text', 'm.notice']).toContain(body.msgtype);
      expect(body.format).toBe('org.matrix.custom.html');
      expect(jsonBytes(post.body)).toBeLessThanOrEqual(60_000);
      return m![2];
    });
    expect(new Set(txnIds).size).toBe(txnIds.length);
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WebhookEventName } from '@app/contracts';
import { COLORS } from './colors';
import { FORMATS } from './index';
import { toBridgeMessage } from './message';
import { discordDialect, mattermostDialect, renderDoc, rocketchatDialect, slackDialect } from './render';
import type { BridgeMessage, PlatformPost } from './types';

/**
 * Golden payloads: what each platform receives for each event kind and formatting case,
 * kept in __golden__/<platform>/<case>.json and read by a person when written
 * (`UPDATE_GOLDEN=1 npx jest formats.golden --selectProjects unit` rewrites them: review the
 * diff before committing). The rule checks below hold for every case, whatever the files
 * say, so a golden file cannot make a payload break a platform's documented rule.
 */

const GOLDEN = join(__dirname, '__golden__');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const room = { id: 7, is_archived: false, links: { self: 'https://chat.example.com/v2/room/7', participants: '', webhooks: '' }, name: 'Ops', privacy: 'public', version: 'v1' };
const ada = { id: 1, links: { self: 'https://chat.example.com/v2/user/1' }, mention_name: 'ada', name: 'Ada Lovelace', version: 'v1' };

let seq = 0;
const msg = (event: WebhookEventName, item: Record<string, unknown>, card?: unknown): BridgeMessage =>
  toBridgeMessage({ event, item: { room, ...item }, deliveryId: `d-${++seq}`, card });
const userMessage = (text: string, from: unknown = ada, extra: Record<string, unknown> = {}) =>
  msg('room_message', { message: { date: '2026-11-29T03:00:00Z', from, id: 'm1', mentions: [], message: text, type: 'message', ...extra } });
const notification = (message: string, o: { format?: 'html' | 'text'; color?: string; from?: string | null; card?: unknown } = {}) =>
  msg('room_notification', { message: { color: o.color ?? 'yellow', date: '2026-11-29T03:00:00Z', from: o.from === undefined ? 'Build bot' : o.from, id: 'n1', mentions: [], message, message_format: o.format ?? 'html', type: 'notification' } }, o.card);

/** 10,000 characters of lines of words, nothing a platform formats: its posts joined are the text itself. */
const LONG_TEXT = (() => {
  const vocabulary = ['deploy', 'rollback', 'cluster', 'latency', 'release', 'canary', 'incident', 'pager'];
  let s = '';
  for (let i = 0; s.length < 10_000; i++) s += vocabulary[(i * 7) % vocabulary.length] + ((i % 11 === 10) ? '\n' : ' ');
  return s.slice(0, 9_999) + 'x';
})();

/** The same words as html, with links and bold text every line. */
const LONG_HTML = LONG_TEXT.split('\n').map((line, i) => `<b>${i}</b> ${line} <a href="https://ci.example.com/runs/${i}?a=1&amp;b=2">run ${i}</a>`).join('<br>');

const CARD = {
  style: 'application', format: 'medium', id: 'c-42', title: 'Build #42 passed',
  url: 'https://ci.example.com/builds/42',
  description: { value: '<b>main</b> at <code>3f2a1c</code> &amp; all <i>1,204</i> tests green', format: 'html' },
  thumbnail: { url: 'https://ci.example.com/badge.png', width: 64, height: 64 },
  activity: { html: '<b>CI</b> finished a build' },
  icon: { url: 'https://ci.example.com/icon.png' },
  attributes: [
    { label: 'Branch', value: { label: 'main', url: 'https://git.example.com/tree/main' } },
    { label: 'Duration', value: { label: '4 min 12 s', style: 'lozenge-success' } },
  ],
};

const CASES: Record<string, () => BridgeMessage[]> = {
  'message-user': () => [userMessage('Hello @grace, lunch at noon? (pizza)')],
  'message-inbound': () => [userMessage('Is the deploy done?', 'Grace Hopper (Mattermost)')],
  'text-mentions-emoticons': () => [userMessage('@all (thumbsup) see https://example.com/a_b?x=1&y=2 — <b>not html</b>, 2*3*4 & a_b_c\n# not a heading\n> not a quote')],
  'notification-text': () => [notification('Deploy of <api> done & verified', { format: 'text' })],
  'color-yellow': () => [notification('<b>Deploy</b> started', { color: 'yellow' })],
  'color-green': () => [notification('<b>Deploy</b> finished', { color: 'green' })],
  'color-red': () => [notification('<b>Deploy</b> failed', { color: 'red' })],
  'color-purple': () => [notification('<b>Deploy</b> queued', { color: 'purple' })],
  'color-gray': () => [notification('<b>Deploy</b> skipped', { color: 'gray' })],
  'html-nested': () => [notification('<b>Build <i>#42</i> <a href="https://ci.example.com/42">passed</a></b> on <code>main</code><br>by <strong><em>Ada</em></strong>', { from: null })],
  'html-entities': () => [notification('Tom &amp; Jerry &lt;3 &amp;lt;b&amp;gt; &quot;quoted&quot; &copy; &#x1F680; 5 &gt; 3', { from: null })],
  'html-links': () => [notification('See <a href="https://example.com/a b?q=(1)&amp;r=2">the report</a>, <a href="https://example.com">https://example.com</a>, <a href="mailto:ops@example.com">mail us</a> and <img src="https://example.com/chart.png" alt="the chart">', { from: null })],
  'html-code': () => [notification('Run <code>npm ci &amp;&amp; npm test</code>:<pre>\nif (a &lt; b &amp;&amp; c &gt; d) {\n  console.log(`${a}`);\n}\n</pre>', { from: null })],
  'html-lists': () => [notification('Steps:<ol><li>build<ul><li>lint</li><li>test</li></ul></li><li>deploy</li></ol><ul><li><b>done</b></li></ul>', { from: null })],
  'html-tables': () => [notification('<table><thead><tr><th>Service</th><th>Status</th></tr></thead><tbody><tr><td>api</td><td><b>up</b></td></tr><tr><td>web | cdn</td><td>down</td></tr></tbody></table>', { from: null })],
  card: () => [notification('Build #42 passed', { color: 'green', card: CARD })],
  'file-image': () => [msg('room_file_upload', { sender: ada, file: { name: 'diagram.png', size: 254_312, url: 'https://chat.example.com/files/7/diagram.png', thumb_url: 'https://chat.example.com/files/7/diagram.thumb.png' } })],
  'file-other': () => [msg('room_file_upload', { sender: ada, file: { name: 'report.pdf', size: 3_400_000, url: 'https://chat.example.com/files/7/report.pdf' } })],
  'message-with-file': () => [userMessage('Here is the log', ada, { file: { name: 'build.log', size: 812, url: 'https://chat.example.com/files/7/build.log' } })],
  topic: () => [msg('room_topic_change', { sender: ada, topic: 'Release 2.0 <today> & tomorrow' })],
  enter: () => [msg('room_enter', { sender: ada })],
  exit: () => [msg('room_exit', { sender: ada })],
  archived: () => [msg('room_archived', { sender: ada })],
  unarchived: () => [msg('room_unarchived', { sender: ada })],
  created: () => [msg('room_created', { sender: ada })],
  deleted: () => [msg('room_deleted', { sender: 'API' })],
  'long-10000': () => [userMessage(LONG_TEXT)],
  // A coloured notification as long: Slack, Mattermost and Rocket.Chat attachments, Discord embeds of 4,096.
  'long-notification': () => [notification(LONG_HTML, { color: 'red' })],
  // A code block longer than a Discord embed: closed and reopened where it is cut.
  'long-code': () => [notification(`<pre>${Array.from({ length: 300 }, (_, i) => `line ${i}: value &lt; limit &amp;&amp; ok`).join('\n')}</pre>`, { color: 'gray' })],
  burst: () => [
    notification('Deploy <b>1</b> started', { from: 'CI', color: 'yellow' }),
    notification('Deploy <b>1</b> finished', { from: 'CI', color: 'green' }),
    notification('plain line', { from: 'CI', format: 'text', color: 'gray' }),
    userMessage('nice'),
    userMessage('thanks all'),
    notification('Deploy <b>2</b> failed', { from: 'CI', color: 'red' }),
  ],
  'username-forbidden': () => [notification('hi', { from: 'Discord Clyde @here: #1 ```' })],
};

// The Markdown platforms' cases; Teams, Google Chat and Matrix have their own (rich-cases.ts, *.spec.ts).
const PLATFORMS = ['slack', 'mattermost', 'rocketchat', 'discord'] as const;
const target = (kind: keyof typeof FORMATS) => ({ kind, matrixRoomId: null });
const render = (platform: keyof typeof FORMATS, name: string) => { seq = 0; return FORMATS[platform](CASES[name](), target(platform)); };

describe.each(PLATFORMS)('%s golden payloads', (platform) => {
  it.each(Object.keys(CASES))('%s', (name) => {
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

const allPosts = (platform: keyof typeof FORMATS) => Object.keys(CASES).map((name) => ({ name, posts: render(platform, name) }));

/** Every string under the given keys, anywhere in a body. */
function stringsAt(value: unknown, keys: ReadonlySet<string>, out: string[] = [], key = ''): string[] {
  if (typeof value === 'string') { if (keys.has(key)) out.push(value); }
  else if (Array.isArray(value)) value.forEach((v) => stringsAt(v, keys, out, key));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) stringsAt(v, keys, out, k);
  return out;
}

describe('Discord: every post within every documented limit', () => {
  // https://discord.com/developers/docs/resources/message#embed-object-embed-limits
  it.each(Object.keys(CASES))('%s', (name) => {
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
  it.each(Object.keys(CASES))('%s', (name) => {
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
  it.each(Object.keys(CASES))('%s', (name) => {
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
  it.each(PLATFORMS)('%s: posts to the webhook URL itself', (platform) => {
    for (const { posts } of allPosts(platform)) for (const p of posts) expect(p).toMatchObject({ method: 'POST', path: '' });
  });

  it.each(PLATFORMS)('%s: a 10,000-character message arrives whole, in order, as consecutive posts', (platform) => {
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

  it.each(PLATFORMS)('%s: a burst is coalesced into one post per run of one sender, in order', (platform) => {
    const posts: PlatformPost[] = render(platform, 'burst');
    const name = (p: PlatformPost) => p.body.username ?? p.body.alias;
    expect(posts.map(name)).toEqual(['CI', 'Ada Lovelace', 'CI']);
    expect(JSON.stringify(posts).indexOf('started')).toBeLessThan(JSON.stringify(posts).indexOf('finished'));
    expect(posts[1].body.text ?? posts[1].body.content).toBe('nice\nthanks all');
  });
});

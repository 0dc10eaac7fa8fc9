import type { BridgeKind, WebhookEventName } from '@app/contracts';
import { toBridgeMessage } from '../message';
import type { BridgeMessage } from '../types';

/**
 * The one set of golden cases every platform's format is rendered from (issue 35 §5: each
 * event kind and each formatting case), each a room event's webhook item as the outbox
 * carries it, through toBridgeMessage: event in, payload out. Test-only; it lives beside the
 * golden files, which the dispatcher's build leaves out.
 */

const room = { id: 7, is_archived: false, links: { self: 'https://chat.example.com/v2/room/7', participants: '', webhooks: '' }, name: 'Ops', privacy: 'public', version: 'v1' };
const ada = { id: 1, links: { self: 'https://chat.example.com/v2/user/1' }, mention_name: 'ada', name: 'Ada Lovelace', version: 'v1' };
const person = (id: number, name: string) => ({ id, links: { self: `https://chat.example.com/v2/user/${id}` }, mention_name: name.split(' ')[0].toLowerCase(), name, version: 'v1' });

let seq = 0;
const msg = (event: WebhookEventName, item: Record<string, unknown>, card?: unknown): BridgeMessage =>
  toBridgeMessage({ event, item: { room, ...item }, deliveryId: `d-${++seq}`, card });
const userMessage = (text: string, from: unknown = ada, extra: Record<string, unknown> = {}) =>
  msg('room_message', { message: { date: '2026-11-29T03:00:00Z', from, id: 'm1', mentions: [], message: text, type: 'message', ...extra } });
const notification = (message: string, o: { format?: 'html' | 'text'; color?: string; from?: string | null; card?: unknown } = {}) =>
  msg('room_notification', { message: { color: o.color ?? 'yellow', date: '2026-11-29T03:00:00Z', from: o.from === undefined ? 'Build bot' : o.from, id: 'n1', mentions: [], message, message_format: o.format ?? 'html', type: 'notification' } }, o.card);

/** 10,000 characters of lines of words, nothing a platform formats: its posts joined are the text itself. */
export const LONG_TEXT = (() => {
  const vocabulary = ['deploy', 'rollback', 'cluster', 'latency', 'release', 'canary', 'incident', 'pager'];
  let s = '';
  for (let i = 0; s.length < 10_000; i++) s += vocabulary[(i * 7) % vocabulary.length] + ((i % 11 === 10) ? '\n' : ' ');
  return s.slice(0, 9_999) + 'x';
})();

/** About 10,000 characters of prose in lines with a URL in each, as a long HipChat text message: no cut may fall in a URL. */
export const LONG_LINKS = (() => {
  const words = ['deploy', 'the', 'service', 'after', 'review,', 'then', 'check', 'https://example.com/runbook?step=4', 'and', 'report', 'back.'];
  const lines: string[] = [];
  let n = 0;
  let total = 0;
  while (total < 10_000) {
    const line = Array.from({ length: 12 }, () => words[n++ % words.length]).join(' ');
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join('\n').slice(0, 10_000).trimEnd();
})();

/** 10,000 characters of Japanese: no space to cut at, a full stop every 18 characters. */
export const LONG_CJK = '本日のデプロイは正常に完了しました。'.repeat(556).slice(0, 10_000);

/** The same words as LONG_TEXT as html, with links and bold text every line. */
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

/** Fifty people each saying one short thing: a burst that must arrive as few posts. */
const SENDERS = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov'];
const chatter = () => Array.from({ length: 50 }, (_, i) => userMessage(`status ${i + 1}: all good on shard ${i % 7}`, person(i % SENDERS.length + 1, SENDERS[i % SENDERS.length])));

const CASES: Record<string, () => BridgeMessage[]> = {
  'message-user': () => [userMessage('Hello @grace, lunch at noon? (pizza)')],
  'message-inbound': () => [userMessage('Is the deploy done?', 'Grace Hopper (Mattermost)')],
  'text-mentions-emoticons': () => [userMessage('@all (thumbsup) see https://example.com/a_b?x=1&y=2 — <b>not html</b>, 2*3*4 & a_b_c\n# not a heading\n> not a quote')],
  mentions: () => [userMessage('@all @here @GraceHopper please look <users/all> <!channel>')],
  'notification-text': () => [notification('Deploy of <api> done & verified', { format: 'text' })],
  'notification-markup': () => [notification('Deploy <done> & verified *now* _really_ [x](y)\n- not a list', { format: 'text' })],
  'notification-html': () => [notification('<b>Build #42</b> passed on <a href="https://ci.example.com/42">main</a><br>All <i>1,024</i> tests green', { color: 'green' })],
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
  // A notification whose message is the card's fallback text (toBridgeMessage keeps it in `body`).
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
  'long-links': () => [userMessage(LONG_LINKS)],
  'long-cjk': () => [userMessage(LONG_CJK)],
  // A table longer than a Discord post or a Rocket.Chat message: each part repeats its header row.
  'long-table': () => [notification(`<table><tr><th>Service</th><th>Region</th><th>Status</th></tr>${Array.from({ length: 240 }, (_, i) => `<tr><td>service-${i}</td><td>eu-${i % 4}</td><td>${i % 9 === 0 ? '<b>down</b>' : 'up'}</td></tr>`).join('')}</table>`, { from: null })],
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
  // Two notices and a person's message: Matrix keeps notices and messages in separate events.
  coalesced: () => [
    notification('Build #43 failed', { color: 'red' }),
    notification('Build #44 passed', { color: 'green' }),
    userMessage('Thanks, all green again'),
  ],
  'burst-senders': chatter,
  'username-forbidden': () => [notification('hi', { from: 'Discord Clyde @here: #1 ```' })],
};

export const CASE_NAMES: readonly string[] = Object.keys(CASES);

/** A case's messages, with the same delivery ids every time (d-1, d-2, ...). */
export function caseMessages(name: string): BridgeMessage[] {
  const make = CASES[name];
  if (!make) throw new Error(`no golden case ${name}`);
  seq = 0;
  return make();
}

export const MATRIX_ROOM = '!abcDEF:example.org';

export const target = (kind: BridgeKind) => ({ kind, matrixRoomId: MATRIX_ROOM });

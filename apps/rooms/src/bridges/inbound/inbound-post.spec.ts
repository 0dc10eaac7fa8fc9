import { CommandFailure } from '@app/contracts';
import { inboundFrom, inboundPost, personName, readInboundFields, teamsText } from './inbound-post';

const form = (fields: Record<string, string>) => readInboundFields('application/x-www-form-urlencoded', Buffer.from(new URLSearchParams(fields).toString()));
const json = (value: unknown) => readInboundFields('application/json; charset=utf-8', Buffer.from(JSON.stringify(value)));

const failureOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof CommandFailure) return { field: err.error.field, problem: err.error.detail?.problem };
    throw err;
  }
  throw new Error('no failure');
};

describe('readInboundFields', () => {
  it.each([
    ['a form', 'application/x-www-form-urlencoded', 'token=t&text=hi+there', { token: 't', text: 'hi there' }],
    ['JSON', 'application/json', '{"text":"hi"}', { text: 'hi' }],
    ['JSON without a content type', '', '{"text":"hi"}', { text: 'hi' }],
    ['broken JSON', 'application/json', '{"text":', null],
    ['a JSON array', 'application/json', '[1]', null],
    ['a JSON string', 'application/json', '"hi"', null],
    ['another type', 'text/plain', 'hi', null],
  ])('%s', (_case, type, body, expected) => {
    expect(readInboundFields(type, Buffer.from(body))).toEqual(expected);
  });
});

describe('inboundPost', () => {
  it.each([
    ['Mattermost (form)', 'mattermost', form({ token: 't', text: '#build now', user_name: 'grace', channel_name: 'town-square', trigger_word: '#build' }),
      { platform: 'mattermost', person: 'grace', text: '#build now', ignored: null }],
    ['Rocket.Chat (JSON)', 'rocketchat', json({ token: 't', text: 'hello', user_name: 'ada', bot: false, isEdited: false, alias: '', message_id: 'x' }),
      { platform: 'rocketchat', person: 'ada', text: 'hello', ignored: null }],
    ['Slack, its escaping undone once', 'slack', form({ text: 'a &lt;b&gt; &amp;amp; c', user_name: 'linus' }),
      { platform: 'slack', person: 'linus', text: 'a <b> &amp; c', ignored: null }],
    ['no user_name: the user id', 'mattermost', form({ text: 'hi', user_id: 'u123' }), { person: 'u123', ignored: null }],
    ['no one named', 'mattermost', form({ text: 'hi' }), { person: 'someone' }],
    ['Slack bot (bot_id)', 'slack', form({ text: 'hi', user_name: 'bot', bot_id: 'B1' }), { ignored: 'a bot\'s post (bot_id)' }],
    ['Slack bot (subtype)', 'slack', json({ text: 'hi', subtype: 'bot_message' }), { ignored: 'a bot\'s post (subtype bot_message)' }],
    ['Rocket.Chat integration (bot object)', 'rocketchat', json({ text: 'hi', bot: { i: 'integration' } }), { ignored: 'a bot\'s or integration\'s post (bot)' }],
    ['Rocket.Chat edit', 'rocketchat', json({ text: 'hi', isEdited: true }), { ignored: 'an edit of a message already posted (isEdited)' }],
    ['a file alone', 'mattermost', form({ text: '', user_name: 'grace', file_ids: 'f1' }), { ignored: 'no text (a file or an empty post)' }],
    ['Teams', 'teams', json({ type: 'message', text: '<at>HipChat</at> deploy <b>now</b>&nbsp;please', from: { id: '29:1', name: 'Grace Hopper' } }),
      { platform: 'teams', person: 'Grace Hopper', text: 'deploy now please', ignored: null }],
    ['Teams, not a message', 'teams', json({ type: 'conversationUpdate', from: { name: 'x' } }), { ignored: 'an activity of type conversationUpdate, not a message' }],
    ['Teams, the mention alone', 'teams', json({ type: 'message', text: '<at>HipChat</at>', from: { name: 'x' } }), { ignored: 'no text besides the mention' }],
  ])('%s', (_case, kind, fields, expected) => {
    expect(inboundPost(kind as never, fields)).toMatchObject(expected);
  });

  it.each([
    ['an unreadable body', 'mattermost', null, { field: 'body', problem: expect.stringContaining('must be a form') }],
    ['no text', 'mattermost', form({ user_name: 'grace' }), { field: 'text', problem: expect.stringContaining('is required') }],
    ['text not text', 'rocketchat', json({ text: 5 }), { field: 'text', problem: 'must be text' }],
    ['10,001 characters', 'mattermost', form({ text: 'x'.repeat(10_001) }), { field: 'text', problem: 'must be at most 10,000 characters (got 10,001)' }],
    ['a NUL', 'rocketchat', json({ text: 'a\u0000b' }), { field: 'text', problem: 'must not contain NUL characters' }],
    ['Teams, no text', 'teams', json({ type: 'message', from: { name: 'x' } }), { field: 'text', problem: expect.stringContaining('is required') }],
  ])('refuses %s, naming the field and the rule', (_case, kind, fields, expected) => {
    expect(failureOf(() => inboundPost(kind as never, fields))).toEqual(expected);
  });

  it('takes 10,000 characters', () => {
    expect(inboundPost('mattermost', form({ text: 'x'.repeat(10_000) })).text).toHaveLength(10_000);
  });
});

describe('teamsText', () => {
  const botMention = [{ type: 'mention', text: '<at>HipChat</at>', mentioned: { id: '28:bot-id', name: 'HipChat' } },
    { type: 'mention', text: '<at>Ada Lovelace</at>', mentioned: { id: '29:ada-id', name: 'Ada Lovelace' } }];
  it.each([
    ['the bot\'s mention anywhere, people\'s names kept', 'ask <at>Ada Lovelace</at> or <at>HipChat</at> now', botMention, 'ask Ada Lovelace or now'],
    ['no entities: the first mention is the webhook\'s', '<at>Bot</at> ask <at>Ada</at>', undefined, 'ask Ada'],
  ])('%s', (_case, html, entities, expected) => {
    expect(teamsText(html, entities)).toBe(expected);
  });

  it.each([
    ['<at>Bot</at> hi', 'hi'],
    ['<p><at>Bot</at> line one</p><p>line two</p>', 'line one\nline two'],
    ['a<br>b<br/>c', 'a\nb\nc'],
    ['Tom &amp; Jerry &lt;3 &quot;x&quot;', 'Tom & Jerry <3 "x"'],
    ['&amp;lt; stays as typed', '&lt; stays as typed'],
    ['<script>alert(1)</script>safe', 'safe'],
  ])('%s', (html, expected) => {
    expect(teamsText(html)).toBe(expected);
  });
});

describe('from', () => {
  it.each([
    [{ person: 'Grace Hopper', platform: 'mattermost' }, 'Grace Hopper (Mattermost)'],
    [{ person: 'ada', platform: 'rocketchat' }, 'ada (Rocket.Chat)'],
    [{ person: 'Linus', platform: 'teams' }, 'Linus (Microsoft Teams)'],
    [{ person: 'x', platform: 'slack' }, 'x (Slack)'],
  ])('%j', (post, expected) => {
    expect(inboundFrom(post as never)).toBe(expected);
  });

  it.each([
    ['  Grace\nHopper  ', 'Grace Hopper'],
    ['', 'someone'],
    [undefined, 'someone'],
    ['é'.repeat(70), 'é'.repeat(64)],
    ['a\uD800b', 'a\uFFFDb'],
    ['\uDC00\uD800', '\uFFFD\uFFFD'],
    ['😀 kept whole', '😀 kept whole'],
    ['nul\u0000byte', 'nul byte'],
  ])('person %j', (raw, expected) => {
    expect(personName(raw)).toBe(expected);
  });
});

import { parseReply, replyCausedBy } from './reply';

const json = 'application/json; charset=utf-8';
const reply = (over: Partial<Parameters<typeof parseReply>[0]> = {}) =>
  parseReply({ status: 200, contentType: json, body: '', truncated: false, ...over });

describe('parseReply', () => {
  describe('a notification', () => {
    it('is a 200 JSON object, read as send-room-notification reads its body (unknown fields dropped)', () => {
      expect(reply({ body: JSON.stringify({ message: 'Deployed <b>v2</b>', color: 'green', notify: true, message_format: 'html', from: 'CI', extra: 1 }) }))
        .toEqual({ kind: 'notification', notification: { message: 'Deployed <b>v2</b>', color: 'green', notify: true, message_format: 'html', from: 'CI' } });
    });

    it('keeps HipChat defaults to the command (absent fields stay absent), treats "" and null as absent', () => {
      expect(reply({ body: '{"message":"hi","color":"","from":null}' })).toEqual({ kind: 'notification', notification: { message: 'hi' } });
    });

    it('reads a card, with the variants clients send', () => {
      const card = { style: 'image', id: 'c1', title: 'Shot', thumbnail: { url: 'https://e.example/t.png', url2x: 'https://e.example/t2.png' } };
      const r = reply({ body: JSON.stringify({ message: 'hi', card }) });
      expect(r.kind).toBe('notification');
      if (r.kind === 'notification') expect(r.notification.card?.thumbnail).toEqual({ url: 'https://e.example/t.png', 'url@2x': 'https://e.example/t2.png' });
    });

    it('accepts +json types, no content type, and a byte order mark', () => {
      expect(reply({ contentType: 'application/vnd.addon+json', body: '{"message":"a"}' }).kind).toBe('notification');
      expect(reply({ contentType: 'Application/JSON', body: '{"message":"a"}' }).kind).toBe('notification');
      expect(reply({ contentType: undefined, body: '{"message":"a"}' }).kind).toBe('notification');
      expect(reply({ body: '\uFEFF{"message":"a"}' }).kind).toBe('notification');
    });
  });

  describe('nothing', () => {
    it.each([
      ['204', { status: 204, contentType: undefined, body: '' }],
      ['200 with an empty body', { body: '' }],
      ['200 with white space only', { body: ' \r\n ' }],
      ['200 with an empty body of another type', { contentType: 'text/plain', body: '' }],
      ['201 without a body', { status: 201, body: '' }],
      ['202 with a body (only 200 posts)', { status: 202, body: '{"message":"queued"}' }],
      ['a failure', { status: 500, body: '{"message":"boom"}' }],
      ['a redirect', { status: 302, contentType: 'text/html', body: '<a href="/x">moved</a>' }],
    ])('for %s', (_name, over) => {
      expect(reply(over)).toEqual({ kind: 'none' });
    });
  });

  describe('invalid, with the problem', () => {
    it.each([
      ['not JSON', { body: '{"message": hi}' }, /^The reply is not valid JSON: /],
      ['another content type', { contentType: 'text/html', body: '<p>OK</p>' }, /^The reply must be application\/json to post a notification \(got text\/html\)\.$/],
      ['JSON sent as text/plain', { contentType: 'text/plain', body: '{"message":"a"}' }, /must be application\/json/],
      ['a list', { body: '[{"message":"a"}]' }, /^The reply must be a JSON object \(got a list\)\.$/],
      ['a string', { body: '"hello"' }, /^The reply must be a JSON object \(got a string\)\.$/],
      ['null', { body: 'null' }, /^The reply must be a JSON object \(got null\)\.$/],
      ['cut at the read limit', { body: '{"message":"aaaa', truncated: true }, /^The reply is longer than the dispatcher reads/],
      ['cut even if what was read parses', { body: '{"message":"a"}', truncated: true }, /^The reply is longer than the dispatcher reads/],
      ['without message', { body: '{"color":"red"}' }, /^The reply is not a valid notification: message: is required$/],
      ['an empty message', { body: '{"message":""}' }, /: message: must not be empty$/],
      ['a message too long', { body: JSON.stringify({ message: 'x'.repeat(10_001) }) }, /: message: must be at most 10,000 characters/],
      ['a bad colour', { body: '{"message":"a","color":"blue"}' }, /: color: must be one of yellow, green, red, purple, gray, random/],
      ['a bad flag', { body: '{"message":"a","notify":"maybe"}' }, /: notify: /],
      ['a bad card field', { body: JSON.stringify({ message: 'a', card: { style: 'image', id: 'c', title: 't', thumbnail: { url: 'ftp://x' } } }) }, /: card\.thumbnail\.url: must be an http\(s\) URL$/],
    ])('for %s', (_name, over, problem) => {
      const r = reply(over);
      expect(r.kind).toBe('invalid');
      if (r.kind === 'invalid') expect(r.problem).toMatch(problem);
    });
  });
});

describe('replyCausedBy', () => {
  it('is at depth 1 for a reply to any event but a notification', () => {
    expect(replyCausedBy({ webhookId: 4, deliveryId: 'd-1', event: 'room_message', payload: { causedBy: { depth: 2 } } }))
      .toEqual({ webhookId: 4, deliveryId: 'd-1', depth: 1 });
    expect(replyCausedBy({ webhookId: 4, deliveryId: 'd-1', event: 'room_notification', payload: {} }))
      .toEqual({ webhookId: 4, deliveryId: 'd-1', depth: 1 });
  });

  it('is one deeper than the notification replied to', () => {
    expect(replyCausedBy({ webhookId: 5, deliveryId: 'd-2', event: 'room_notification', payload: { causedBy: { webhookId: 4, deliveryId: 'd-1', depth: 1 } } }))
      .toEqual({ webhookId: 5, deliveryId: 'd-2', depth: 2 });
  });
});

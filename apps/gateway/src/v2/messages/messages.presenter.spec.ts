import { DateTime } from 'luxon';
import type { HistoryMessageView } from '@app/contracts';
import { formatMessageDate, toV2HistoryItem } from './messages.presenter';

const base = 'https://chat.example.com';
const ada = { id: 7, name: 'Ada L', mentionName: 'ada', version: 'ABCD1234' };

describe('toV2HistoryItem', () => {
  it('presents a user message with User objects, links and the date in the zone', () => {
    const view: HistoryMessageView = {
      id: 'm1', date: '2024-01-02T03:04:05.678Z', type: 'message', from: { userId: 7, name: 'Ada L', mentionName: 'ada', version: 'ABCD1234' },
      message: 'hi @ada https://x.example/a', messageFormat: 'text', color: null, mentions: [ada],
      messageLinks: [{ type: 'link', url: 'https://x.example/a' }],
    };
    const user = { id: 7, links: { self: `${base}/v2/user/7` }, mention_name: 'ada', name: 'Ada L', version: 'ABCD1234' };
    expect(toV2HistoryItem(view, 'Europe/Paris', base)).toEqual({
      id: 'm1', date: '2024-01-02T04:04:05.678+01:00', from: user, message: 'hi @ada https://x.example/a',
      mentions: [user], message_links: [{ type: 'link', url: 'https://x.example/a' }], type: 'message',
    });
  });

  it('presents a notification from its label, with colour, format, card text and attach_to', () => {
    const view: HistoryMessageView = {
      id: 'n1', date: '2024-01-02T03:04:05.000Z', type: 'notification', from: { userId: null, name: 'CI' },
      message: '<b>ok</b>', messageFormat: 'html', color: 'green', mentions: [], card: { style: 'link', id: 'c', title: 't' }, attachTo: 'm1',
    };
    expect(toV2HistoryItem(view, 'UTC', base)).toEqual({
      id: 'n1', date: '2024-01-02T03:04:05.000+00:00', from: 'CI', message: '<b>ok</b>', message_format: 'html', color: 'green',
      mentions: [], type: 'notification', card: '{"style":"link","id":"c","title":"t"}', attach_to: 'm1',
    });
  });

  it('keeps a shared file with its thumbnail', () => {
    const view: HistoryMessageView = {
      id: 'f1', date: '2024-01-02T03:04:05.000Z', type: 'message', from: { userId: 7, name: 'Ada L', mentionName: 'ada', version: 'V' },
      message: '', messageFormat: 'text', color: null, file: { name: 'a.png', size: 3, url: 'u', thumbUrl: 't' },
    };
    expect(toV2HistoryItem(view, 'UTC', base).file).toEqual({ name: 'a.png', size: 3, url: 'u', thumb_url: 't' });
  });
});

describe('formatMessageDate', () => {
  it('writes the instant in the zone with its offset', () => {
    expect(formatMessageDate('2010-11-19T23:48:19.123Z', 'America/Los_Angeles')).toBe('2010-11-19T15:48:19.123-08:00');
    expect(formatMessageDate('2010-11-19T23:48:19.123Z', 'UTC')).toBe('2010-11-19T23:48:19.123+00:00');
    // UTC takes a short cut: the same text as luxon gives.
    for (const iso of ['2024-02-29T00:00:00.000Z', '1999-12-31T23:59:59.999Z', '2026-11-25T01:02:03Z', '2026-06-30T12:34:56.5Z']) {
      expect(formatMessageDate(iso, 'UTC')).toBe(DateTime.fromISO(iso, { zone: 'UTC' }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSSZZ"));
    }
  });
});

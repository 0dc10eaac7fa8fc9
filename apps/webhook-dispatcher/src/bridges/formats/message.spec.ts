import { humanSize, toBridgeMessage } from './message';

const room = { id: 7, name: 'Ops' };
const ada = { id: 1, links: { self: 'x' }, mention_name: 'ada', name: 'Ada Lovelace', version: 'v1' };
const of = (event: Parameters<typeof toBridgeMessage>[0]['event'], item: Record<string, unknown>, card?: unknown) =>
  toBridgeMessage({ event, item: { room, ...item }, deliveryId: 'd-1', card });

describe('toBridgeMessage', () => {
  it('a room_message: from a user by name, or a label as it is; text kept as text; a person, not a notice', () => {
    const m = of('room_message', { message: { from: ada, message: '@grace <b>(thumbsup)</b>', type: 'message' } });
    expect(m).toMatchObject({ event: 'room_message', deliveryId: 'd-1', roomName: 'Ops', sender: 'Ada Lovelace', notice: false, color: null, card: null, file: null });
    expect(m.body).toEqual([{ t: 'paragraph', children: [{ t: 'text', text: '@grace <b>(thumbsup)</b>' }] }]);
    expect(of('room_message', { message: { from: 'Grace Hopper (Mattermost)', message: 'hi' } }).sender).toBe('Grace Hopper (Mattermost)');
  });

  it('a room_notification: its label, html or text, its colour, its card; a notice', () => {
    const html = of('room_notification', { message: { from: 'CI', message: '<b>ok</b> &amp; done', message_format: 'html', color: 'green' } });
    expect(html).toMatchObject({ sender: 'CI', notice: true, color: 'green' });
    expect(html.body).toEqual([{ t: 'paragraph', children: [{ t: 'bold', children: [{ t: 'text', text: 'ok' }] }, { t: 'text', text: ' & done' }] }]);
    const text = of('room_notification', { message: { from: '', message: '<b>ok</b>', message_format: 'text', color: 'random' } });
    expect(text).toMatchObject({ sender: null, color: null });
    expect(text.body).toEqual([{ t: 'paragraph', children: [{ t: 'text', text: '<b>ok</b>' }] }]);
  });

  it('reads a v2 card: description as html or text, thumbnail and icon urls, attributes, the activity as text', () => {
    const card = {
      style: 'link', id: 'c', title: 'T', url: 'https://a.example',
      description: { value: '<i>d</i>', format: 'html' },
      thumbnail: { url: 'https://a.example/t.png' }, icon: 'https://a.example/i.png',
      activity: { html: '<b>CI</b> did it' },
      attributes: [{ label: 'L', value: { label: 'V', url: 'https://a.example/v' } }, { value: { label: 'W' } }],
    };
    const m = of('room_notification', { message: { from: 'CI', message: 'T', message_format: 'text', color: 'gray' } }, card);
    expect(m.card).toEqual({
      style: 'link', title: 'T', url: 'https://a.example',
      description: [{ t: 'paragraph', children: [{ t: 'italic', children: [{ t: 'text', text: 'd' }] }] }],
      thumbnail: 'https://a.example/t.png', icon: 'https://a.example/i.png', activity: 'CI did it',
      attributes: [{ label: 'L', value: 'V', url: 'https://a.example/v' }, { label: '', value: 'W', url: null }],
    });
    // The formats that show a card leave the message out: it is the card's fallback text, kept in body for those that show one (Slack's fallback).
    expect(m.body).toEqual([{ t: 'paragraph', children: [{ t: 'text', text: 'T' }] }]);
    const html = of('room_notification', { message: { from: 'CI', message: '<b>Build</b> passed', message_format: 'html' } }, card);
    expect(html.body).toEqual([{ t: 'paragraph', children: [{ t: 'bold', children: [{ t: 'text', text: 'Build' }] }, { t: 'text', text: ' passed' }] }]);
    expect(html.card?.title).toBe('T');
    expect(of('room_notification', { message: { message: 'x' } }, { ...card, description: 'plain <i>' }).card?.description)
      .toEqual([{ t: 'paragraph', children: [{ t: 'text', text: 'plain <i>' }] }]);
  });

  it('a topic change, enter, exit and the room events read as sentences naming who did it', () => {
    const words = (e: Parameters<typeof of>[0], item: Record<string, unknown>) => JSON.stringify(of(e, item).body);
    expect(words('room_topic_change', { sender: ada, topic: 'Release' })).toBe(JSON.stringify([{ t: 'paragraph', children: [
      { t: 'bold', children: [{ t: 'text', text: 'Ada Lovelace' }] }, { t: 'text', text: ' set the topic: ' }, { t: 'text', text: 'Release' }] }]));
    expect(words('room_topic_change', { sender: ada, topic: '' })).toContain('cleared the topic');
    expect(words('room_enter', { sender: ada })).toContain(' joined the room');
    expect(words('room_exit', { sender: ada })).toContain(' left the room');
    expect(words('room_archived', { sender: 'API' })).toContain('"API"');
    expect(words('room_unarchived', { sender: ada })).toContain(' unarchived the room');
    expect(words('room_created', { sender: ada })).toContain(' created the room Ops');
    expect(words('room_deleted', { sender: ada })).toContain(' deleted the room Ops');
    expect(words('room_enter', {})).toContain('Someone');
    expect(of('room_enter', { sender: ada })).toMatchObject({ sender: null, notice: true });
  });

  it('a file: its name, size and link; the thumbnail, or the file itself when it is an image, as its image', () => {
    const up = (file: Record<string, unknown>) => of('room_file_upload', { sender: ada, file });
    expect(up({ name: 'a.pdf', size: 1500, url: 'https://f/a.pdf', thumb_url: 'https://f/a.png' }).file).toEqual({ name: 'a.pdf', size: 1500, url: 'https://f/a.pdf', imageUrl: 'https://f/a.png' });
    expect(up({ name: 'b.JPG', size: 1, url: 'https://f/b.JPG' }).file?.imageUrl).toBe('https://f/b.JPG');
    expect(up({ name: 'c.txt', size: 1, url: 'https://f/c.txt' }).file?.imageUrl).toBeNull();
    expect(up({ name: 'c.txt', size: 1500, url: 'https://f/c.txt' })).toMatchObject({ sender: 'Ada Lovelace', notice: false, body: [{ t: 'paragraph', children: [
      { t: 'link', href: 'https://f/c.txt', children: [{ t: 'text', text: 'c.txt' }] }, { t: 'text', text: ' (1.5 kB)' }] }] });
  });

  it('never throws on an item missing its fields', () => {
    for (const e of ['room_message', 'room_notification', 'room_topic_change', 'room_file_upload', 'room_enter'] as const) {
      expect(() => toBridgeMessage({ event: e, item: undefined, deliveryId: 'd' })).not.toThrow();
    }
  });
});

describe('humanSize', () => {
  it.each([[0, '0 B'], [999, '999 B'], [1000, '1 kB'], [254_312, '254 kB'], [3_400_000, '3.4 MB'], [12_345_678_901, '12.3 GB']])('%i -> %s', (n, s) => {
    expect(humanSize(n)).toBe(s);
  });
});

import { EventEnvelope, RoomFileUploadedV2, RoomMessageSentV2, RoomNotificationSentV2, WEBHOOK_EVENT_SOURCES } from '@app/contracts';
import { plainFileUrl, problemFrame, toLiveEvent, withPlainFileUrls } from './live-event';

const envelope = (payload: unknown, sequence?: number): EventEnvelope => ({
  id: 'e1', type: 'x', version: 2, occurredAt: '2025-01-01T00:00:00.000Z', payload, ...(sequence !== undefined ? { sequence } : {}),
});

describe('toLiveEvent: a published room event as its live connections see it', () => {
  it('frames the webhook item under the webhook event name, with the room sequence as id', () => {
    const payload = { room: { id: 4, name: 'Ops' }, message: { id: 'm1', message: 'hi' } };
    const live = toLiveEvent(RoomMessageSentV2.routingKey, envelope(payload, 12));
    expect(live).toEqual({
      roomId: 4, seq: 12, name: 'room_message',
      frame: `id: 12\nevent: room_message\ndata: ${JSON.stringify(payload)}\n\n`,
      // A person's stream sends it too, without the room's sequence (it mixes rooms).
      userFrame: `event: room_message\ndata: ${JSON.stringify(payload)}\n\n`,
    });
  });

  it('frames for people\'s streams only what was said (messages, notifications, files), not the room\'s other events', () => {
    const topic = toLiveEvent('room.topic-changed.v2', envelope({ room: { id: 4 }, topic: 't' }, 3));
    expect(topic).toEqual(expect.objectContaining({ name: 'room_topic_change' }));
    expect(topic?.userFrame).toBeUndefined();
  });

  it('sends what a webhook receives: a notification without the fields only the domain needs', () => {
    const payload = { room: { id: 4 }, message: { message: 'x' }, notify: true, causedBy: { webhookId: 1 }, actorUserId: 3 };
    const live = toLiveEvent(RoomNotificationSentV2.routingKey, envelope(payload, 1))!;
    const data = JSON.parse(live.frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
    expect(data).toEqual(WEBHOOK_EVENT_SOURCES.room_notification.item(payload));
    expect(data).toEqual({ room: { id: 4 }, message: { message: 'x' } });
  });

  it('gives a notification\'s card in its message as the history does (JSON text), so a live reader shows it without a reload', () => {
    const card = { style: 'link', id: 'c1', title: 'Build 42', url: 'https://ci.example.com/42' };
    const payload = { room: { id: 4 }, message: { id: 'm1', message: 'x', type: 'notification' }, notify: false, card };
    const live = toLiveEvent(RoomNotificationSentV2.routingKey, envelope(payload, 2))!;
    const data = JSON.parse(live.frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
    expect(data).toEqual({ room: { id: 4 }, message: { id: 'm1', message: 'x', type: 'notification', card: JSON.stringify(card) } });
    // The webhook's item stays as HipChat sent it.
    expect(WEBHOOK_EVENT_SOURCES.room_notification.item(payload)).toEqual({ room: { id: 4 }, message: { id: 'm1', message: 'x', type: 'notification' } });
  });

  it('gives a shared file\'s plain URLs, never the signed links webhooks get (a person\'s access is judged at every fetch)', () => {
    const signed = (key: string) => `https://chat.example.com/files/${key}?expires=2000&issued=1000&signature=abc_-`;
    const payload = {
      room: { id: 4 }, sender: { id: 7, name: 'Ann' },
      file: { name: 'cat.png', size: 3, url: signed('ab/cd/cat.png'), thumb_url: signed('ab/cd-thumb/cat.png') },
    };
    const live = toLiveEvent(RoomFileUploadedV2.routingKey, envelope(payload, 5))!;
    const plain = { name: 'cat.png', size: 3, url: 'https://chat.example.com/files/ab/cd/cat.png', thumb_url: 'https://chat.example.com/files/ab/cd-thumb/cat.png' };
    for (const frame of [live.frame, live.userFrame!]) {
      const data = JSON.parse(frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
      expect(data).toEqual({ room: { id: 4 }, sender: { id: 7, name: 'Ann' }, file: plain });
      expect(frame).not.toMatch(/signature|expires|issued/);
    }
    // The webhook's item keeps them, and the payload is not changed in place.
    expect(WEBHOOK_EVENT_SOURCES.room_file_upload.item(payload)).toMatchObject({ file: { url: signed('ab/cd/cat.png') } });
  });

  it('ignores what is not a sequenced room event', () => {
    expect(toLiveEvent('user.changed.v1', envelope({ room: { id: 1 } }, 1))).toBeNull();
    expect(toLiveEvent(RoomMessageSentV2.routingKey, envelope({ room: { id: 1 } }))).toBeNull();
    expect(toLiveEvent(RoomMessageSentV2.routingKey, envelope({ message: {} }, 3))).toBeNull();
    expect(toLiveEvent(RoomMessageSentV2.routingKey, envelope({ room: { id: 1 } }, 0))).toBeNull();
  });
});

describe('plainFileUrl and withPlainFileUrls', () => {
  it('drops only a signed link\'s parameters', () => {
    expect(plainFileUrl('https://x.example/files/a/b.png?expires=1&issued=2&signature=s')).toBe('https://x.example/files/a/b.png');
    expect(plainFileUrl('https://x.example/files/a/b.png?expires=1&signature=s')).toBe('https://x.example/files/a/b.png');
    expect(plainFileUrl('https://x.example/files/a/b.png')).toBe('https://x.example/files/a/b.png');
    expect(plainFileUrl('https://x.example/f?v=2&signature=s')).toBe('https://x.example/f?v=2');
  });

  it('leaves an item without a file (or without a thumbnail) as it is', () => {
    const item = { room: { id: 1 } };
    expect(withPlainFileUrls(item)).toBe(item);
    expect(withPlainFileUrls({ file: { name: 'a', size: 1, url: 'https://x.example/files/a?expires=1&issued=1&signature=s' } }))
      .toEqual({ file: { name: 'a', size: 1, url: 'https://x.example/files/a' } });
  });
});

describe('problemFrame', () => {
  it('is an `error` event with a JSON body naming the problem, and no id', () => {
    expect(problemFrame({ code: 'slow_client', message: 'too slow' }))
      .toBe('event: error\ndata: {"error":{"code":"slow_client","message":"too slow"}}\n\n');
  });
});

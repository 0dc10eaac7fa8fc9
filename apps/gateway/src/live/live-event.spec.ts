import { EventEnvelope, RoomMessageSentV2, RoomNotificationSentV2, WEBHOOK_EVENT_SOURCES } from '@app/contracts';
import { problemFrame, toLiveEvent } from './live-event';

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

  it('ignores what is not a sequenced room event', () => {
    expect(toLiveEvent('user.changed.v1', envelope({ room: { id: 1 } }, 1))).toBeNull();
    expect(toLiveEvent(RoomMessageSentV2.routingKey, envelope({ room: { id: 1 } }))).toBeNull();
    expect(toLiveEvent(RoomMessageSentV2.routingKey, envelope({ message: {} }, 3))).toBeNull();
    expect(toLiveEvent(RoomMessageSentV2.routingKey, envelope({ room: { id: 1 } }, 0))).toBeNull();
  });
});

describe('problemFrame', () => {
  it('is an `error` event with a JSON body naming the problem, and no id', () => {
    expect(problemFrame({ code: 'slow_client', message: 'too slow' }))
      .toBe('event: error\ndata: {"error":{"code":"slow_client","message":"too slow"}}\n\n');
  });
});

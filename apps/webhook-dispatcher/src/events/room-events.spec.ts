import {
  RoomArchivedV2, RoomMessageSentV2, RoomNotificationSentV2, RoomTopicChangedV2, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENT_SOURCES,
} from '@app/contracts';
import { classify, eventNameOf } from './room-events';

const envelope = { id: 'e1', type: 'room.notification-sent', version: 2, occurredAt: '2026-01-01T00:00:00Z', payload: {} };

describe('classify', () => {
  it('maps each of the ten room events to its webhook event name', () => {
    for (const name of WEBHOOK_EVENT_NAMES) {
      const { routingKey } = WEBHOOK_EVENT_SOURCES[name];
      const type = routingKey.replace(/\.v2$/, '');
      expect(classify(routingKey, { ...envelope, type })).toMatchObject({ kind: 'room-event', webhookEvent: name });
    }
    expect(classify(RoomNotificationSentV2.routingKey, envelope)).toEqual({
      kind: 'room-event', webhookEvent: 'room_notification', envelope,
    });
  });

  it('rejects unknown keys, malformed bodies and mismatched envelopes', () => {
    expect(classify('room.exploded.v2', envelope).kind).toBe('unknown');
    expect(classify('room.notification-sent.v2', { hello: 1 }).kind).toBe('unknown');
    expect(classify('room.created.v2', envelope)).toEqual({ kind: 'unknown', reason: 'envelope type does not match routing key' });
  });
});

describe('eventNameOf', () => {
  it('is the inverse of WEBHOOK_EVENT_SOURCES', () => {
    for (const name of WEBHOOK_EVENT_NAMES) expect(eventNameOf(WEBHOOK_EVENT_SOURCES[name].routingKey)).toBe(name);
    expect(eventNameOf(RoomMessageSentV2.routingKey)).toBe('room_message');
    expect(eventNameOf(RoomNotificationSentV2.routingKey)).toBe('room_notification');
    expect(eventNameOf(RoomTopicChangedV2.routingKey)).toBe('room_topic_change');
    expect(eventNameOf(RoomArchivedV2.routingKey)).toBe('room_archived');
  });

  it('is null for other routing keys', () => {
    expect(eventNameOf('user.changed.v1')).toBeNull();
    expect(eventNameOf('room.message-sent.v1')).toBeNull();
    expect(eventNameOf('room.message-sent.v3')).toBeNull();
    expect(eventNameOf('')).toBeNull();
  });
});

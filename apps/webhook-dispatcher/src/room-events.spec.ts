import { RoomNotificationSentV1 } from '@app/contracts';
import { classify, WEBHOOK_EVENT_OF } from './room-events';

const envelope = { id: 'e1', type: 'room.notification-sent', version: 1, occurredAt: '2026-01-01T00:00:00Z', payload: {} };

describe('classify', () => {
  it('maps each of the ten room events to its webhook event name', () => {
    expect(Object.values(WEBHOOK_EVENT_OF).sort()).toEqual([
      'room_archived', 'room_created', 'room_deleted', 'room_enter', 'room_exit', 'room_file_upload',
      'room_message', 'room_notification', 'room_topic_change', 'room_unarchived',
    ]);
    expect(classify(RoomNotificationSentV1.routingKey, envelope)).toEqual({
      kind: 'room-event', webhookEvent: 'room_notification', envelope,
    });
  });

  it('rejects unknown keys, malformed bodies and mismatched envelopes', () => {
    expect(classify('room.exploded.v1', envelope).kind).toBe('unknown');
    expect(classify('room.notification-sent.v1', { hello: 1 }).kind).toBe('unknown');
    expect(classify('room.created.v1', envelope)).toEqual({ kind: 'unknown', reason: 'envelope type does not match routing key' });
  });
});

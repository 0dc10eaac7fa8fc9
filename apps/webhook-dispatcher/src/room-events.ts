import {
  EventEnvelope, isEventEnvelope, RoomArchivedV1, RoomCreatedV1, RoomDeletedV1, RoomFileUploadedV1,
  RoomMemberEnteredV1, RoomMemberExitedV1, RoomMessageSentV1, RoomNotificationSentV1, RoomTopicChangedV1,
  RoomUnarchivedV1,
} from '@app/contracts';

/** The webhook event name of each domain event the dispatcher understands. */
export const WEBHOOK_EVENT_OF: Readonly<Record<string, string>> = {
  [RoomArchivedV1.routingKey]: 'room_archived',
  [RoomCreatedV1.routingKey]: 'room_created',
  [RoomDeletedV1.routingKey]: 'room_deleted',
  [RoomUnarchivedV1.routingKey]: 'room_unarchived',
  [RoomTopicChangedV1.routingKey]: 'room_topic_change',
  [RoomMemberEnteredV1.routingKey]: 'room_enter',
  [RoomMemberExitedV1.routingKey]: 'room_exit',
  [RoomFileUploadedV1.routingKey]: 'room_file_upload',
  [RoomMessageSentV1.routingKey]: 'room_message',
  [RoomNotificationSentV1.routingKey]: 'room_notification',
};

/** Binding patterns: every room event of version 1. */
export const ROOM_EVENT_BINDINGS = ['room.*.v1'];

export type Classified =
  | { kind: 'room-event'; webhookEvent: string; envelope: EventEnvelope }
  | { kind: 'unknown'; reason: string };

/** Decides what a delivered message is; unknown or malformed ones are dead-lettered. */
export function classify(routingKey: string, body: unknown): Classified {
  if (!isEventEnvelope(body)) return { kind: 'unknown', reason: 'not an event envelope' };
  const webhookEvent = WEBHOOK_EVENT_OF[routingKey];
  if (!webhookEvent) return { kind: 'unknown', reason: `no webhook event for routing key ${routingKey}` };
  if (`${body.type}.v${body.version}` !== routingKey) return { kind: 'unknown', reason: 'envelope type does not match routing key' };
  return { kind: 'room-event', webhookEvent, envelope: body };
}

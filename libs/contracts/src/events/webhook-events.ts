import type { WebhookEventName } from '../models/webhook-event-names';
import { RoomArchivedV1 } from './room-archived/v1';
import { RoomCreatedV1 } from './room-created/v1';
import { RoomDeletedV1 } from './room-deleted/v1';
import { RoomFileUploadedV1 } from './room-file-uploaded/v1';
import { RoomMemberEnteredV1 } from './room-member-entered/v1';
import { RoomMemberExitedV1 } from './room-member-exited/v1';
import { RoomMessageSentV1 } from './room-message-sent/v1';
import { RoomNotificationSentV1, RoomNotificationSentV1Payload } from './room-notification-sent/v1';
import { RoomTopicChangedV1 } from './room-topic-changed/v1';
import { RoomUnarchivedV1 } from './room-unarchived/v1';

export interface WebhookEventSource {
  /** The domain event's routing key. */
  routingKey: string;
  /** The webhook's `item`: the payload without what only the domain needs. */
  item(payload: unknown): Record<string, unknown>;
}

const asIs = (payload: unknown) => payload as Record<string, unknown>;

/**
 * Which domain event each of the ten webhook events comes from, and how its `item` is
 * made: the payloads are built as the items (so the dispatcher never reads back), except
 * for fields only the domain needs (a notification's `notify`, for a live client's alert,
 * `causedBy`, which keeps a webhook's reply from being delivered back to it, and
 * `actorUserId`, the JWT's acting user).
 */
export const WEBHOOK_EVENT_SOURCES: Readonly<Record<WebhookEventName, WebhookEventSource>> = {
  room_archived: { routingKey: RoomArchivedV1.routingKey, item: asIs },
  room_created: { routingKey: RoomCreatedV1.routingKey, item: asIs },
  room_deleted: { routingKey: RoomDeletedV1.routingKey, item: asIs },
  room_unarchived: { routingKey: RoomUnarchivedV1.routingKey, item: asIs },
  room_topic_change: { routingKey: RoomTopicChangedV1.routingKey, item: asIs },
  room_enter: { routingKey: RoomMemberEnteredV1.routingKey, item: asIs },
  room_exit: { routingKey: RoomMemberExitedV1.routingKey, item: asIs },
  room_file_upload: { routingKey: RoomFileUploadedV1.routingKey, item: asIs },
  room_message: { routingKey: RoomMessageSentV1.routingKey, item: asIs },
  room_notification: {
    routingKey: RoomNotificationSentV1.routingKey,
    item: (payload) => {
      const { notify: _notify, causedBy: _causedBy, actorUserId: _actorUserId, ...item } = payload as RoomNotificationSentV1Payload;
      return item as unknown as Record<string, unknown>;
    },
  },
};

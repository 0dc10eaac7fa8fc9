import type { WebhookEventName } from '../models/webhook-event-names';
import { RoomArchivedV2 } from './room-archived/v2';
import { RoomCreatedV2 } from './room-created/v2';
import { RoomDeletedV2 } from './room-deleted/v2';
import { RoomFileUploadedV2 } from './room-file-uploaded/v2';
import { RoomMemberEnteredV2 } from './room-member-entered/v2';
import { RoomMemberExitedV2 } from './room-member-exited/v2';
import { RoomMessageSentV2, RoomMessageSentV2Payload } from './room-message-sent/v2';
import { RoomNotificationSentV2, RoomNotificationSentV2Payload } from './room-notification-sent/v2';
import { RoomTopicChangedV2 } from './room-topic-changed/v2';
import { RoomUnarchivedV2 } from './room-unarchived/v2';

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
 * `causedBy`, which keeps a webhook's reply from being delivered back to it, `actorUserId`,
 * the JWT's acting user, and `card`, which only bridges show; a message's `origin`, which
 * keeps it from going back out through the bridge it came in by). The items stay exactly
 * what HipChat's webhooks sent.
 */
export const WEBHOOK_EVENT_SOURCES: Readonly<Record<WebhookEventName, WebhookEventSource>> = {
  room_archived: { routingKey: RoomArchivedV2.routingKey, item: asIs },
  room_created: { routingKey: RoomCreatedV2.routingKey, item: asIs },
  room_deleted: { routingKey: RoomDeletedV2.routingKey, item: asIs },
  room_unarchived: { routingKey: RoomUnarchivedV2.routingKey, item: asIs },
  room_topic_change: { routingKey: RoomTopicChangedV2.routingKey, item: asIs },
  room_enter: { routingKey: RoomMemberEnteredV2.routingKey, item: asIs },
  room_exit: { routingKey: RoomMemberExitedV2.routingKey, item: asIs },
  room_file_upload: { routingKey: RoomFileUploadedV2.routingKey, item: asIs },
  room_message: {
    routingKey: RoomMessageSentV2.routingKey,
    item: (payload) => {
      const p = payload as RoomMessageSentV2Payload;
      // Built as the item except for a bridged message's origin: copy only then (the hot path).
      if (p?.origin === undefined) return asIs(payload);
      const { origin: _origin, ...item } = p;
      return item as unknown as Record<string, unknown>;
    },
  },
  room_notification: {
    routingKey: RoomNotificationSentV2.routingKey,
    item: (payload) => {
      const { notify: _notify, causedBy: _causedBy, actorUserId: _actorUserId, card: _card, ...item } = payload as RoomNotificationSentV2Payload;
      return item as unknown as Record<string, unknown>;
    },
  },
};

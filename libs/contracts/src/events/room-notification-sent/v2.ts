import { NotificationMessageObject, RoomObject } from '../../models';
import type { CausedBy } from '../../commands/rooms/send-notification';
import type { Card } from '../../rules/card';
import { defineRoomEvent } from '../envelope';

/** An integration sent a notification (v1 rooms/message). Webhook event: room_notification. */
export interface RoomNotificationSentV2Payload {
  room: RoomObject;
  message: NotificationMessageObject;
  /** Whether the sender asked recipients to be notified. */
  notify: boolean;
  /** Set when the notification is a webhook's reply (see SendNotificationV1). */
  causedBy?: CausedBy;
  /**
   * The user whose personal token sent it (the acting user of the webhook JWT's `sub` and
   * `prn`); absent for integrations (v1, room and add-on tokens), whose `from` is a label.
   */
  actorUserId?: number;
  /**
   * The v2 card sent with it, for the bridges (each platform shows it as its own card).
   * Not part of the webhook's item: HipChat's room_notification never carried it.
   */
  card?: Card;
}
export const RoomNotificationSentV2 = defineRoomEvent<RoomNotificationSentV2Payload>('room.notification-sent', 2);

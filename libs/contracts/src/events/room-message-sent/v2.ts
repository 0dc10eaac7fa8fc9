import { MessageObject, RoomObject } from '../../models';
import { defineRoomEvent } from '../envelope';

/** Where a message came from when it was not written in the room itself. */
export interface MessageOrigin {
  /** The bridge (its registration's id) whose platform's people wrote it: it never goes back out through that bridge. */
  bridgeId: number;
}

/** A user sent a normal message. Webhook event: room_message. */
export interface RoomMessageSentV2Payload {
  room: RoomObject;
  message: MessageObject;
  /** Set when it came in through a bridge (see MessageOrigin); not part of the webhook's item. */
  origin?: MessageOrigin;
}
export const RoomMessageSentV2 = defineRoomEvent<RoomMessageSentV2Payload>('room.message-sent', 2);

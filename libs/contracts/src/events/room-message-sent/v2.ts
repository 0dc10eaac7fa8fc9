import { MessageObject, RoomObject } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A user sent a normal message. Webhook event: room_message. */
export interface RoomMessageSentV2Payload { room: RoomObject; message: MessageObject }
export const RoomMessageSentV2 = defineRoomEvent<RoomMessageSentV2Payload>('room.message-sent', 2);

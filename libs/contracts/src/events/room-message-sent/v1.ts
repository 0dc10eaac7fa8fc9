import { MessageObject, RoomObject } from '../../models';
import { defineEvent } from '../envelope';

/** A user sent a normal message. Webhook event: room_message. */
export interface RoomMessageSentV1Payload { room: RoomObject; message: MessageObject }
export const RoomMessageSentV1 = defineEvent<RoomMessageSentV1Payload>('room.message-sent', 1);

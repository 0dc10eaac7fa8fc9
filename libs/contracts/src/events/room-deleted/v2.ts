import { RoomObject, Sender } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A room was deleted; `room` is its last state. Webhook event: room_deleted. */
export interface RoomDeletedV2Payload { room: RoomObject; sender: Sender }
export const RoomDeletedV2 = defineRoomEvent<RoomDeletedV2Payload>('room.deleted', 2);

import { RoomObject, Sender } from '../../models';
import { defineEvent } from '../envelope';

/** A room was deleted; `room` is its last state. Webhook event: room_deleted. */
export interface RoomDeletedV1Payload { room: RoomObject; sender: Sender }
export const RoomDeletedV1 = defineEvent<RoomDeletedV1Payload>('room.deleted', 1);

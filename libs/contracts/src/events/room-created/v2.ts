import { RoomObject, Sender } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A room was created. Webhook event: room_created. */
export interface RoomCreatedV2Payload { room: RoomObject; sender: Sender }
export const RoomCreatedV2 = defineRoomEvent<RoomCreatedV2Payload>('room.created', 2);

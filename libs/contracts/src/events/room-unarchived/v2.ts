import { RoomObject, Sender } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A room was unarchived. Webhook event: room_unarchived. */
export interface RoomUnarchivedV2Payload { room: RoomObject; sender: Sender }
export const RoomUnarchivedV2 = defineRoomEvent<RoomUnarchivedV2Payload>('room.unarchived', 2);

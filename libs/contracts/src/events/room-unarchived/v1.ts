import { RoomObject, Sender } from '../../models';
import { defineEvent } from '../envelope';

/** A room was unarchived. Webhook event: room_unarchived. */
export interface RoomUnarchivedV1Payload { room: RoomObject; sender: Sender }
export const RoomUnarchivedV1 = defineEvent<RoomUnarchivedV1Payload>('room.unarchived', 1);

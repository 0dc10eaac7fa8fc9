import { RoomObject, Sender } from '../../models';
import { defineEvent } from '../envelope';

/** A room was created. Webhook event: room_created. */
export interface RoomCreatedV1Payload { room: RoomObject; sender: Sender }
export const RoomCreatedV1 = defineEvent<RoomCreatedV1Payload>('room.created', 1);

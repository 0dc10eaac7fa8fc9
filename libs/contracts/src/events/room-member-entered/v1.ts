import { RoomObject, UserObject } from '../../models';
import { defineEvent } from '../envelope';

/** A member entered a room. Webhook event: room_enter. */
export interface RoomMemberEnteredV1Payload { room: RoomObject; sender: UserObject }
export const RoomMemberEnteredV1 = defineEvent<RoomMemberEnteredV1Payload>('room.member-entered', 1);

import { RoomObject, UserObject } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A member entered a room. Webhook event: room_enter. */
export interface RoomMemberEnteredV2Payload { room: RoomObject; sender: UserObject }
export const RoomMemberEnteredV2 = defineRoomEvent<RoomMemberEnteredV2Payload>('room.member-entered', 2);

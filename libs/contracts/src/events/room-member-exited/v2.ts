import { RoomObject, UserObject } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A member exited a room. Webhook event: room_exit. */
export interface RoomMemberExitedV2Payload { room: RoomObject; sender: UserObject }
export const RoomMemberExitedV2 = defineRoomEvent<RoomMemberExitedV2Payload>('room.member-exited', 2);

import { RoomObject, UserObject } from '../../models';
import { defineEvent } from '../envelope';

/** A member exited a room. Webhook event: room_exit. */
export interface RoomMemberExitedV1Payload { room: RoomObject; sender: UserObject }
export const RoomMemberExitedV1 = defineEvent<RoomMemberExitedV1Payload>('room.member-exited', 1);

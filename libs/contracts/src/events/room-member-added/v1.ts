import { defineEvent } from '../envelope';

/**
 * A user was made a member of a private room (PUT /v2/room/{room}/member/{user}). Not a
 * webhook event (HipChat had none) and no room sequence: the user's live stream
 * (GET /v2/user/{user}/events) starts carrying the room.
 */
export interface RoomMemberAddedV1Payload { roomId: number; userId: number }
export const RoomMemberAddedV1 = defineEvent<RoomMemberAddedV1Payload>('room.member-added', 1);

import { defineEvent } from '../envelope';

/**
 * A room became one of a user's chats: they were made a member of a private room
 * (PUT /v2/room/{room}/member/{user}), or given a room to own (created for them, or its
 * owner changed to them). Not a webhook event (HipChat had none) and no room sequence: the
 * user's live stream (GET /v2/user/{user}/events) starts carrying the room, as their chats
 * list (GET /v2/user/{user}/chats) does.
 */
export interface RoomMemberAddedV1Payload { roomId: number; userId: number }
export const RoomMemberAddedV1 = defineEvent<RoomMemberAddedV1Payload>('room.member-added', 1);

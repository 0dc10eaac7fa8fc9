import { defineEvent } from '../envelope';

/**
 * Someone may have lost the right to read a room: a member was removed (`userId`), or the
 * room became private (`userId` null: anyone not a member); or a user lost access to rooms
 * at once (`roomId` null: the user was deleted, or demoted from group admin). Not a webhook
 * event and no room sequence: live connections re-check their reader's access when it
 * arrives. It is published in commit order with the room's events, so it reaches a gateway
 * before any event committed after the change.
 */
export interface RoomAccessNarrowedV1Payload { roomId: number | null; userId: number | null }
export const RoomAccessNarrowedV1 = defineEvent<RoomAccessNarrowedV1Payload>('room.access-narrowed', 1);

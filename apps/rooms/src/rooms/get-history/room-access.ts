import { Actor, commandFailure } from '@app/contracts';
import type { RoomEntity, UserEntity } from '../../database/entities';
import { assertActorMayUse } from '../../shared/actors';

export type RoomUse = 'read its history' | 'send to it';

/**
 * Why this actor may not use the room, or null. Room tokens use their own room only; in a
 * private room a user acts as a member or a group admin. An actor without a user (an
 * add-on installed by a group admin) is not a member of anything and is let through.
 */
export function privateRoomRefusal(room: RoomEntity, user: UserEntity | null, isMember: boolean, use: RoomUse): string | null {
  if (room.privacy !== 'private' || !user || user.isGroupAdmin || isMember) return null;
  return `Room ${room.name} is private: only its members and group admins may ${use}.`;
}

/** Throws forbidden when the actor may not use the room (see privateRoomRefusal). */
export async function assertMayUseRoom(
  actor: Actor, user: UserEntity | null, room: RoomEntity, use: RoomUse, memberIds: () => Promise<number[]>,
): Promise<void> {
  assertActorMayUse(actor, room);
  if (room.privacy !== 'private' || !user || user.isGroupAdmin) return;
  const refusal = privateRoomRefusal(room, user, (await memberIds()).includes(user.id), use);
  if (refusal) throw commandFailure('forbidden', 'not_allowed', 'room', { message: refusal });
}

import { Actor, CommandFailure, commandFailure } from '@app/contracts';
import type { RoomEntity, UserEntity } from '../database/entities';

/** What an actor does with a room; a private room's refusal names it. */
export type RoomUse = 'see it' | 'read its history' | 'send to it';

/** A room token acts on its own room only. */
export function assertActorMayUse(actor: Actor, room: RoomEntity): void {
  if (actor.roomId !== undefined && actor.roomId !== room.id) {
    throw commandFailure('forbidden', 'outside_token_room', 'room', { ref: room.id });
  }
}

/**
 * The private-room rule, written once: in a private room a user acts as a member or a
 * group admin. An actor without a user (an add-on installed by a group admin) is not a
 * member of anything and is let through. True when membership decides, so that callers
 * read members only then.
 */
export function membershipDecides(room: RoomEntity, user: Pick<UserEntity, 'isGroupAdmin'> | null): boolean {
  return room.privacy === 'private' && user !== null && !user.isGroupAdmin;
}

/** Why this user may not use the room, or null (see membershipDecides). */
export function privateRoomRefusal(
  room: RoomEntity, user: Pick<UserEntity, 'isGroupAdmin'> | null, isMember: boolean, use: RoomUse,
): string | null {
  if (!membershipDecides(room, user) || isMember) return null;
  return `Room ${room.name} is private: only its members and group admins may ${use}.`;
}

export function assertNotRefused(refusal: string | null): void {
  if (refusal) throw forbiddenRoom(refusal);
}

/** The acting user's standing in a room, read with the room: what the private-room rule needs of them. */
export interface Standing {
  isGroupAdmin: boolean;
  isMember: boolean;
}

/**
 * How a refusal by the private-room rule is answered: 403 saying why (the room's own
 * answer, as GET of the room gives it), unless the operation names something in the room
 * that the refusal must not confirm (a webhook: not found, as for one of another user's).
 */
export type PrivateRoomRefusal = (message: string) => CommandFailure;

export const forbiddenRoom: PrivateRoomRefusal = (message) => commandFailure('forbidden', 'not_allowed', 'room', { message });

/**
 * Throws when the actor may not act on the room at all: a room token outside its room, or
 * a user (`standing`: null when no user acts) whom the private-room rule keeps from seeing
 * it. Every operation on a room starts here, but reading its history and sending to it,
 * which name their use (assertMayUseRoom). v1 admin tokens and group-wide add-ons act
 * without a user and are let through.
 */
export function assertMayActOn(actor: Actor, room: RoomEntity, standing: Standing | null, refuse: PrivateRoomRefusal = forbiddenRoom): void {
  assertActorMayUse(actor, room);
  if (!standing) return;
  const refusal = privateRoomRefusal(room, { isGroupAdmin: standing.isGroupAdmin }, standing.isMember, 'see it');
  if (refusal) throw refuse(refusal);
}

/**
 * Throws forbidden when the actor may not use the room: a room token outside its room,
 * or a user the private-room rule keeps out. Members are read only when they decide.
 */
export async function assertMayUseRoom(
  actor: Actor, user: UserEntity | null, room: RoomEntity, use: RoomUse, memberIds: () => Promise<number[]>,
): Promise<void> {
  assertActorMayUse(actor, room);
  if (!user || !membershipDecides(room, user)) return;
  assertNotRefused(privateRoomRefusal(room, user, (await memberIds()).includes(user.id), use));
}

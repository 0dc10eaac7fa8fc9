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

/**
 * The acting user's standing in a room, read with the room in one statement: what the
 * private-room rule and the administration rule need of them.
 */
export interface Standing {
  userId: number;
  isGroupAdmin: boolean;
  isMember: boolean;
  /** The room's owner (owner_user_id). */
  isOwner: boolean;
}

/**
 * The acting user's standing, from what the one statement read beside the room: each read of
 * a room with its actor builds it here, so that the owner is judged in one place.
 */
export function standingOf(userId: number, room: Pick<RoomEntity, 'ownerUserId'>, isGroupAdmin: boolean, isMember: boolean): Standing {
  return { userId, isGroupAdmin, isMember, isOwner: room.ownerUserId === userId };
}

/** What the private-room rule reads of a standing. */
export type Membership = Pick<Standing, 'isGroupAdmin' | 'isMember'>;

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
export function assertMayActOn(actor: Actor, room: RoomEntity, standing: Membership | null, refuse: PrivateRoomRefusal = forbiddenRoom): void {
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

/**
 * What administering a room does: deleting it, and the changes of a PUT that are not its
 * topic (HipChat let any participant set the topic, and so do we).
 */
export type RoomAdministration =
  | 'delete' | 'rename' | 'change the privacy of' | 'change the owner of' | 'archive' | 'unarchive' | 'change guest access to';

/** The administration a PUT's changes amount to, the first that applies (null: only the topic, or nothing). */
export function administrationOf(changes: {
  name?: unknown; privacy?: unknown; ownerUserId?: unknown; isArchived?: boolean; guestAccessToken?: unknown;
}): RoomAdministration | null {
  if (changes.privacy !== undefined) return 'change the privacy of';
  if (changes.ownerUserId !== undefined) return 'change the owner of';
  if (changes.isArchived !== undefined) return changes.isArchived ? 'archive' : 'unarchive';
  if (changes.name !== undefined) return 'rename';
  if (changes.guestAccessToken !== undefined) return 'change guest access to';
  return null;
}

/**
 * The administration rule, written once: a room is administered by its owner and group
 * admins, whatever its privacy. An actor without a user (`standing` null: a v1 admin token,
 * an add-on) is let through, as by the private-room rule (a room token stays confined to
 * its room by assertMayActOn, which every command runs first).
 */
export function administrationRefusal(room: RoomEntity, standing: Standing | null, what: RoomAdministration): string | null {
  if (!standing || standing.isGroupAdmin || standing.isOwner) return null;
  return `Only the room's owner and group admins may ${what} room ${room.name}.`;
}

export function assertMayAdminister(room: RoomEntity, standing: Standing | null, what: RoomAdministration | null): void {
  if (what) assertNotRefused(administrationRefusal(room, standing, what));
}

/**
 * The webhook rule, written once: a user's webhook (its URL may carry a secret, its delivery
 * log the room's messages) is its creator's, the room owner's and group admins' to see and
 * change. Webhooks without a user (an add-on's, declared or registered with its token) and
 * actors without a user keep the room's rules. Whoever else asks is answered not found, so
 * that the answer confirms no id.
 */
export function mayManageWebhook(standing: Standing | null, webhook: { userId: number | null }): boolean {
  return webhook.userId === null || webhooksOwnedBy(standing) === null || webhook.userId === standing?.userId;
}

/**
 * Whose webhooks a room's list shows this user: null for all (the owner, group admins,
 * actors without a user), else the user's own and those without a user. The list keeps the
 * rule in SQL as well (WebhookRepository.listOfRoom): its page is cut after the filter.
 */
export function webhooksOwnedBy(standing: Standing | null): number | null {
  return !standing || standing.isGroupAdmin || standing.isOwner ? null : standing.userId;
}

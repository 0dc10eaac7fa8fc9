import { Actor, CommandFailure, commandFailure, confinedTokenRefusal, describeRef, RoomRef } from '@app/contracts';
import type { RoomEntity, UserEntity } from '../database/entities';

/**
 * What a reference to no room answers, and what the private-room rule answers whoever it
 * keeps out: the same 404 (`Room <ref> not found`, naming only the reference the client
 * sent), so that a refusal confirms neither that a private room exists nor its name, topic
 * or owner (room ids are sequential: a 403 naming the room would list every private room).
 * A 404 rather than a message-less 403: compatibility.md has clients match `Room <id or
 * name> not found`, v1 answers 404 for a room it does not know, and HipChat hid private
 * rooms from non-members the same way (absent from lists, not found by reference).
 */
export const roomNotFound = (ref: RoomRef) => commandFailure('not_found', 'room_not_found', 'room', { ref: describeRef(ref) });

/** A room token acts on its own room only. */
export function assertActorMayUse(actor: Actor, room: RoomEntity): void {
  if (actor.roomId !== undefined && actor.roomId !== room.id) {
    throw commandFailure('forbidden', 'outside_token_room', 'room', { ref: room.id });
  }
}

/**
 * A token confined to one room (a room token, an add-on installed in one room) acts in
 * that room only: whatever concerns the group (creating a room, users, tokens, group-wide
 * webhooks) is refused to it, whatever scopes it carries.
 */
export function assertNotConfined(actor: Actor, what: string): void {
  if (actor.roomId !== undefined) {
    throw commandFailure('forbidden', 'not_allowed', 'room', { message: confinedTokenRefusal(actor.roomId, what) });
  }
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
export type Membership = Pick<Standing, 'isGroupAdmin' | 'isMember' | 'isOwner'>;

/**
 * The private-room rule, written once: a private room is for its members, its owner (a
 * member or not: the owner is never kept out of their own room) and group admins. An actor
 * without a user (`standing` null: a v1 admin token, an add-on installed by a group admin)
 * is not a member of anything and is let through.
 */
export function passesPrivateRoomRule(room: Pick<RoomEntity, 'privacy'>, standing: Membership | null): boolean {
  return room.privacy !== 'private' || !standing || standing.isGroupAdmin || standing.isMember || standing.isOwner;
}

/**
 * True when membership decides the private-room rule for this user, so that callers read
 * members only then (a private room, a user who is neither a group admin nor its owner).
 */
export function membershipDecides(room: Pick<RoomEntity, 'privacy' | 'ownerUserId'>, user: Pick<UserEntity, 'id' | 'isGroupAdmin'> | null): boolean {
  return room.privacy === 'private' && user !== null && !user.isGroupAdmin && user.id !== room.ownerUserId;
}

/**
 * How a refusal by the private-room rule is answered: as if the room did not exist
 * (roomNotFound), unless the operation names something in the room that the refusal must
 * not confirm either (a webhook: not found, as for one of another user's).
 */
export type PrivateRoomRefusal = () => CommandFailure;

/**
 * Throws when the actor may not act on the room at all: a room token outside its room, or
 * a user (`standing`: null when no user acts) whom the private-room rule keeps from seeing
 * it, answered as a room that does not exist (`ref`: the reference the client sent). Every
 * operation on a room starts here, but reading its history and sending to it
 * (assertMayUseRoom). v1 admin tokens and group-wide add-ons act without a user and are let
 * through.
 */
export function assertMayActOn(
  actor: Actor, room: RoomEntity, ref: RoomRef, standing: Membership | null, refuse: PrivateRoomRefusal = () => roomNotFound(ref),
): void {
  assertActorMayUse(actor, room);
  if (!passesPrivateRoomRule(room, standing)) throw refuse();
}

/**
 * As assertMayActOn, for reading history and sending (the hot paths): members are read
 * only when they decide.
 */
export async function assertMayUseRoom(
  actor: Actor, user: UserEntity | null, room: RoomEntity, ref: RoomRef, memberIds: () => Promise<number[]>,
): Promise<void> {
  assertActorMayUse(actor, room);
  if (!user || !membershipDecides(room, user)) return;
  if (!(await memberIds()).includes(user.id)) throw roomNotFound(ref);
}

/** Throws a forbidden with this message (a refusal to someone who may see the room). */
export function assertNotRefused(refusal: string | null): void {
  if (refusal) throw commandFailure('forbidden', 'not_allowed', 'room', { message: refusal });
}

/**
 * What administering a room does: deleting it, the changes of a PUT that are not its topic
 * (HipChat let any participant set the topic, and so do we), managing the members of a
 * private room and moving other people in or out of it.
 */
export type RoomAdministration =
  | 'delete' | 'rename' | 'change the privacy of' | 'change the owner of' | 'archive' | 'unarchive' | 'change guest access to'
  | 'manage the members of' | 'move other people in or out of';

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
 * Who asks about a room's webhooks: the acting user's standing (null when no user acts) and
 * the add-on whose token acts (its OAuth client id, which signs its webhooks), if any.
 */
export interface WebhookViewer {
  standing: Standing | null;
  addOn: string | null;
}

/**
 * The webhook rule, written once: a webhook (its URL may carry a secret, its delivery log
 * the room's messages and its receiver's answers) belongs to its creator: a user, or an
 * add-on's installation (the webhooks it declared and those its tokens registered, signed
 * with its OAuth client). Its creator, the room's owner and group admins see and change it.
 * A webhook made with neither (a room token's) keeps the room's rules, and so does an actor
 * with neither (a room token) for users' webhooks, as before. Whoever else asks is answered
 * not found, so that the answer confirms no id or key. Its SQL form: mayManageWebhookSql.
 */
export function mayManageWebhook(viewer: WebhookViewer, webhook: { userId: number | null; oauthClientId: string | null }): boolean {
  const s = viewer.standing;
  if (s && (s.isGroupAdmin || s.isOwner)) return true;
  if (webhook.oauthClientId !== null) return viewer.addOn === webhook.oauthClientId;
  if (webhook.userId !== null) return s ? s.userId === webhook.userId : viewer.addOn === null;
  return true;
}

/**
 * Whether the viewer created the webhook: the add-on whose token registered (or whose
 * descriptor declared) it, the user whose token registered it, or, for one made with
 * neither (a room token's), an actor with neither. Anyone else (the room's owner and group
 * admins included) is shown its URL masked (maskedUrl), where receivers keep their tokens.
 */
export function isWebhookCreator(viewer: WebhookViewer, webhook: { userId: number | null; oauthClientId: string | null }): boolean {
  if (webhook.oauthClientId !== null) return viewer.addOn === webhook.oauthClientId;
  if (webhook.userId !== null) return viewer.standing?.userId === webhook.userId;
  return viewer.standing === null && viewer.addOn === null;
}

/**
 * The moving rule: anyone enters or leaves a room themselves (entering subject to the
 * private-room rule, judged on the user who enters); moving someone else is administering
 * the room: the owner's and group admins', with a token that may administer rooms
 * (`asAdmin`: the scope admin_room or admin_group). An actor without a user needs that
 * scope only (a v1 admin token, an add-on).
 */
export function movingRefusal(
  room: RoomEntity, actor: Actor, standing: Standing | null, movedUserId: number, asAdmin: boolean | undefined,
): string | null {
  if (actor.userId === movedUserId) return null;
  if (asAdmin !== true) {
    return `Only user ${movedUserId} themselves, or the room's owner or a group admin with a token with the scope admin_room ` +
      'or admin_group, may make them enter or exit a room.';
  }
  return administrationRefusal(room, standing, 'move other people in or out of');
}

import type { Actor } from '@app/contracts';
import type { RoomEntity } from '../../database/entities';
import { passesPrivateRoomRule, type Membership } from '../room-access';

/**
 * Whether `actor` may have a file of `room` now: anyone a public room's, and a private room's
 * whoever may read its history (the private-room rule, room-access.ts: members, the owner, group admins; a room token of
 * another room may not). Nobody (`actor` undefined: no credentials) only a public room's.
 * `standing`: the acting user's, null when no user acts.
 */
export function mayReadFile(actor: Actor | undefined, room: Pick<RoomEntity, 'id' | 'privacy' | 'name'>, standing: Membership | null): boolean {
  if (room.privacy === 'public') return true;
  if (!actor) return false;
  if (actor.roomId !== undefined && actor.roomId !== room.id) return false;
  return passesPrivateRoomRule(room, standing);
}

import { Actor, commandFailure } from '@app/contracts';
import type { RoomEntity, UserEntity } from '../../database/entities';

/** A user enters and exits rooms themselves; an administrator may move anyone. */
export function assertMayMove(actor: Actor, asAdmin: boolean | undefined, user: UserEntity): void {
  if (asAdmin === true || actor.userId === user.id) return;
  throw commandFailure('forbidden', 'not_allowed', 'user', {
    message: `Only user ${user.id} themselves, or an administrator (a token with the scope admin_room or admin_group), ` +
      'may make them enter or exit a room.',
  });
}

/** Nobody enters an archived room; only members enter a private one. */
export function assertMayEnter(room: RoomEntity, user: UserEntity, isMember: boolean): void {
  if (room.isArchived) throw commandFailure('invalid', 'entering_archived_room', 'room', { name: room.name });
  if (room.privacy === 'private' && !isMember) {
    throw commandFailure('forbidden', 'not_allowed', 'user', {
      message: `User ${user.id} is not a member of the private room ${room.name}: only its members may enter it.`,
    });
  }
}

import { commandFailure, describeRef, RoomRef } from '@app/contracts';
import type { RoomEntity } from '../../database/entities';

/** Members are managed for private rooms only: anyone may enter a public room. */
export function assertPrivate(room: RoomEntity, ref: RoomRef): void {
  if (room.privacy !== 'private') throw commandFailure('invalid', 'room_not_private', 'room', { ref: describeRef(ref) });
}

/** The owner is never removed from their own room (give it another owner first). */
export function assertNotOwner(room: RoomEntity, userId: number): void {
  if (room.ownerUserId === userId) {
    throw commandFailure('invalid', 'rule', 'user', {
      problem: "names the room's owner, who is never removed from their own room (make someone else its owner first)",
    });
  }
}

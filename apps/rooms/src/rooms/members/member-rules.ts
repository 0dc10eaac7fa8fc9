import { commandFailure, describeRef, RoomRef } from '@app/contracts';
import type { RoomEntity } from '../../database/entities';

/** Members are managed for private rooms only: anyone may enter a public room. */
export function assertPrivate(room: RoomEntity, ref: RoomRef): void {
  if (room.privacy !== 'private') throw commandFailure('invalid', 'room_not_private', 'room', { ref: describeRef(ref) });
}

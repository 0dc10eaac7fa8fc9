import { commandFailure } from '@app/contracts';
import type { RoomEntity } from '../../database/entities';

/**
 * Nobody enters an archived room. Who may enter a private room is the private-room rule
 * (room-access.ts, passesPrivateRoomRule), judged on the user who enters; who may move whom
 * is the moving rule (movingRefusal).
 */
export function assertNotArchived(room: RoomEntity): void {
  if (room.isArchived) throw commandFailure('invalid', 'entering_archived_room', 'room', { name: room.name });
}

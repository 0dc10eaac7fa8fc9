import type { RoomEntity } from '../../database/entities';

/** What a PUT asks for, in the room's terms; undefined: keep. */
export interface RoomUpdate {
  name?: string;
  privacy?: 'public' | 'private';
  topic?: string;
  isArchived?: boolean;
  ownerUserId?: number;
  guestAccess?: boolean;
}

export type RoomChanges = Partial<Pick<RoomEntity, 'name' | 'privacy' | 'topic' | 'isArchived' | 'ownerUserId' | 'guestAccessToken'>>;

/**
 * The attributes that actually change: a field given with the value the room already has
 * is no change (no new version, no event). A rename that only changes the case is one.
 * Guest access keeps its URL while it stays on; `newGuestToken` makes one when it is turned on.
 */
export function roomChanges(room: RoomEntity, update: RoomUpdate, newGuestToken: () => string): RoomChanges {
  const changes: RoomChanges = {};
  if (update.name !== undefined && update.name !== room.name) changes.name = update.name;
  if (update.privacy !== undefined && update.privacy !== room.privacy) changes.privacy = update.privacy;
  if (update.topic !== undefined && update.topic !== room.topic) changes.topic = update.topic;
  if (update.isArchived !== undefined && update.isArchived !== room.isArchived) changes.isArchived = update.isArchived;
  if (update.ownerUserId !== undefined && update.ownerUserId !== room.ownerUserId) changes.ownerUserId = update.ownerUserId;
  if (update.guestAccess !== undefined && update.guestAccess !== (room.guestAccessToken !== null)) {
    changes.guestAccessToken = update.guestAccess ? newGuestToken() : null;
  }
  return changes;
}

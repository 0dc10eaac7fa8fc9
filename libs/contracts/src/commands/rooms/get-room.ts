import { z } from 'zod';
import { RoomDetailView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

export const GetRoomV1 = defineCommand<{ room: RoomDetailView }>('rooms.get-room.v1', z.object({
  room: roomRefSchema,
  /** v2: who reads; a private room is shown to its members and group admins only. */
  actor: actorSchema.optional(),
  /** v2: answer the owner as a user too (a User object needs their names and version). */
  withOwner: z.boolean().optional(),
}), { query: true });

import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/**
 * Who enters or exits which room, on whose behalf. A user moves themselves (`actor.userId`
 * is that user: a personal token now, a live connection later); an administrator moves
 * anyone. Whether the actor is one is known where the actor was authenticated (a v2 token's
 * admin_room or admin_group scope), hence `asAdmin`.
 */
export const presenceSchema = z.object({
  actor: actorSchema,
  room: roomRefSchema,
  user: userRefSchema,
  asAdmin: z.boolean().optional(),
});

/** The user enters the room (room_enter); entering again changes nothing and succeeds. */
export const EnterRoomV1 = defineCommand<Record<string, never>>('rooms.enter-room.v1', presenceSchema);

import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/** Takes a user's membership of a private room away; a user in the room exits it (room_exit). */
export const RemoveMemberV1 = defineCommand<Record<string, never>>('rooms.remove-member.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  user: userRefSchema,
}));

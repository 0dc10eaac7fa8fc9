import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/**
 * Makes a user a member of a private room (members may enter it). Adding a member again
 * changes nothing and succeeds. The room keeps its version: membership is a resource of its
 * own, not a field of the Room object.
 */
export const AddMemberV1 = defineCommand<Record<string, never>>('rooms.add-member.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  user: userRefSchema,
}));

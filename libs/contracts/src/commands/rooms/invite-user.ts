import { z } from 'zod';
import { controlProblem, firstProblem, maxLengthProblem, text } from '../../rules/text';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/** Why the user is invited, shown to them with the invitation. */
export const inviteReason = text((v) => firstProblem(maxLengthProblem(v, 250), controlProblem(v)));

/**
 * Invites a user to a room: to a private room the invitation makes them a member; to a
 * public one nothing is stored (the invitation itself reaches the user over their live
 * connection, a later issue, which is why the reason travels with the command).
 */
export const InviteUserV1 = defineCommand<Record<string, never>>('rooms.invite-user.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  user: userRefSchema,
  reason: inviteReason.optional(),
}));

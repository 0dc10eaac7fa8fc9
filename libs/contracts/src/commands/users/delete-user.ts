import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';

export const DeleteUserV1 = defineCommand<Record<string, never>>('users.delete-user.v1', z.object({
  /** Who asks (absent from older senders): named in the audit log. */
  actor: actorSchema.optional(),
  user: userRefSchema,
}), { alone: true });
export const UndeleteUserV1 = defineCommand<Record<string, never>>('users.undelete-user.v1', z.object({ user: userRefSchema }));

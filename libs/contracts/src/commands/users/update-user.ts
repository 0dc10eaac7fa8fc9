import { z } from 'zod';
import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';
import { userFields } from './user-fields';

/**
 * Changes the fields given. With `replace` (v2 PUT) the request is the whole user: a field
 * left out goes back to its default (mention name derived from the name, no title, not an
 * admin, UTC); the password is kept unless given.
 */
export const UpdateUserV1 = defineCommand<{ user: UserView }>('users.update-user.v1', z.object({
  /** Who asks (absent from older senders): named in the audit log when it promotes or demotes. */
  actor: actorSchema.optional(),
  replace: z.boolean().optional(),
  user: userRefSchema,
  email: userFields.email.optional(),
  name: userFields.name.optional(),
  mentionName: userFields.mentionName,
  title: userFields.title,
  isGroupAdmin: userFields.isGroupAdmin,
  password: userFields.password,
  timezone: userFields.timezone,
}));

import { z } from 'zod';
import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { userRefSchema } from '../refs';
import { userFields } from './user-fields';

/** Changes the fields given. */
export const UpdateUserV1 = defineCommand<{ user: UserView }>('users.update-user.v1', z.object({
  user: userRefSchema,
  email: userFields.email.optional(),
  name: userFields.name.optional(),
  mentionName: userFields.mentionName,
  title: userFields.title,
  isGroupAdmin: userFields.isGroupAdmin,
  password: userFields.password,
  timezone: userFields.timezone,
}));

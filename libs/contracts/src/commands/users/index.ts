import { z } from 'zod';
import { UserView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { userRefSchema } from '../refs';

const userFields = {
  email: field.email,
  name: field.displayName,
  mentionName: field.mentionName.optional(),
  title: field.title.optional(),
  isGroupAdmin: field.flag.optional(),
  /** Generated (and answered once) when absent. */
  password: field.password.optional(),
  timezone: field.timezone.optional(),
};

export const CreateUserV1 = defineCommand<{ user: UserView; password: string }>('users.create-user.v1', z.object(userFields));

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

export const DeleteUserV1 = defineCommand<Record<string, never>>('users.delete-user.v1', z.object({ user: userRefSchema }));
export const UndeleteUserV1 = defineCommand<Record<string, never>>('users.undelete-user.v1', z.object({ user: userRefSchema }));
export const GetUserV1 = defineCommand<{ user: UserView }>('users.get-user.v1', z.object({ user: userRefSchema }));
export const ListUsersV1 = defineCommand<{ users: UserView[] }>('users.list-users.v1', z.object({ includeDeleted: field.flag }));

import { z } from 'zod';
import { UserView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';

export const ListUsersV1 = defineCommand<{ users: UserView[] }>('users.list-users.v1', z.object({ includeDeleted: field.flag }));

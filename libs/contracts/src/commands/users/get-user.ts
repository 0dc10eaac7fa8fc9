import { z } from 'zod';
import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { userRefSchema } from '../refs';

export const GetUserV1 = defineCommand<{ user: UserView }>('users.get-user.v1', z.object({ user: userRefSchema }), { query: true });

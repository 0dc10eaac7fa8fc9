import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { userFieldsSchema } from './user-fields';

export const CreateUserV1 = defineCommand<{ user: UserView; password: string }>('users.create-user.v1', userFieldsSchema);

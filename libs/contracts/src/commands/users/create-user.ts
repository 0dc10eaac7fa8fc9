import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema } from '../refs';
import { userFieldsSchema } from './user-fields';

export const CreateUserV1 = defineCommand<{ user: UserView; password: string }>('users.create-user.v1', userFieldsSchema.extend({
  /** Who asks (absent from older senders): named in the audit log (`user.created`). */
  actor: actorSchema.optional(),
}));

import { z } from 'zod';
import { UserView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { startIndexSchema } from '../../rules/ids';

/**
 * Users by id. v1 asks for all of them; v2 for one page (`offset`, `limit`: it asks one row
 * more than it shows, to know whether a next page exists) and leaves guests out unless asked.
 */
export const ListUsersV1 = defineCommand<{ users: UserView[] }>('users.list-users.v1', z.object({
  includeDeleted: field.flag,
  /** Absent: every user, guests too (v1). */
  includeGuests: field.flag.optional(),
  offset: startIndexSchema.optional(),
  limit: z.number().int().min(0).max(10_001).optional(),
}), { query: true });

import { z } from 'zod';
import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { startIndexSchema } from '../../rules/ids';

/** A page of a room's users: `limit` may be one more than the page, to learn whether more follow. */
export const userPageSchema = {
  startIndex: startIndexSchema,
  limit: z.number().int().min(0).max(1001),
};

/** The live members of a private room, by user id. */
export const ListMembersV1 = defineCommand<{ users: UserView[] }>('rooms.list-members.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  ...userPageSchema,
}), { query: true });

import { z } from 'zod';
import { RoomView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema } from '../refs';
import { startIndexSchema } from '../../rules/ids';

/**
 * Rooms by id. Without options (v1): every room. v2 filters and pages in SQL: `limit` may
 * be one more than the page, to learn whether more follow; `actor` decides which private
 * rooms are listed (a user sees those they are a member of, group admins all of them).
 */
export const ListRoomsV1 = defineCommand<{ rooms: RoomView[] }>('rooms.list-rooms.v1', z.object({
  actor: actorSchema.optional(),
  includePrivate: z.boolean().optional(),
  includeArchived: z.boolean().optional(),
  startIndex: startIndexSchema.optional(),
  limit: z.number().int().min(0).max(1001).optional(),
}), { query: true });

import { z } from 'zod';
import { HistoryMessageView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

const instant = z.string().datetime({ offset: true, message: 'must be an ISO-8601 date-time' });

/** v2: one page of a room's messages, newest first, within optional bounds. */
export const historyPageSchema = z.object({
  /** Messages at or before this instant; absent: up to now. */
  before: instant.optional(),
  /** Messages at or after this instant; absent: no lower bound. */
  after: instant.optional(),
  /** Messages not older than this one (an id of a message of the room). */
  notBefore: z.string().max(100).optional(),
  /** Only the newest 75 messages are candidates (HipChat's `date=recent`). */
  recentOnly: z.boolean(),
  offset: z.number().int().nonnegative().max(2_147_483_647),
  /** The page size plus one, when the caller wants to know whether more follow. */
  limit: z.number().int().nonnegative().max(1001),
});
export type HistoryPage = z.output<typeof historyPageSchema>;

export const GetHistoryV1 = defineCommand<{ messages: HistoryMessageView[] }>('rooms.get-history.v1', z.object({
  room: roomRefSchema,
  /** v1: `recent` or a calendar date YYYY-MM-DD in `timezone`, oldest first. Required unless `page` is given. */
  date: field.historyDate.optional(),
  timezone: field.timezone,
  /** v2: who reads; a private room's history is for its members and group admins. */
  actor: actorSchema.optional(),
  /** v2: a page of messages instead of a day (`date` is then ignored). */
  page: historyPageSchema.optional(),
}), { query: true });

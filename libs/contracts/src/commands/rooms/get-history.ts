import { z } from 'zod';
import { HistoryMessageView } from '../../models/views';
import { instantSchema as instant } from '../../rules/instant';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { startIndexSchema } from '../../rules/ids';


/**
 * A page of a room's history, for every API: of the messages within the bounds, newest
 * first, skip `offset` and take `limit`; the reply lists the page oldest first. Each edge
 * reads its own parameters into this (v1 `date`, v2 `date`, `end-date`, `not-before`,
 * `start-index`, `max-results`) with the one date reader, readHistoryDate.
 */
export const GetHistoryV2 = defineCommand<{ messages: HistoryMessageView[] }>('rooms.get-history.v2', z.object({
  room: roomRefSchema,
  /** Who reads: a private room's history is for its members and group admins. Absent: a v1 admin token. */
  actor: actorSchema.optional(),
  /** Messages sent at or after this instant. */
  since: instant.optional(),
  /** Messages sent before this instant (exclusive). */
  before: instant.optional(),
  /** Messages not older than this one (the id of a message of the room). */
  notBefore: z.string().max(100).optional(),
  /** Only the newest 75 messages are candidates (HipChat's `recent`). */
  recentOnly: z.boolean(),
  offset: startIndexSchema,
  /** At most this many (a page size plus one tells whether more follow); absent: all within the bounds. */
  limit: z.number().int().nonnegative().max(1001).optional(),
  /** With senders' mention names, mentions, links, cards and replies' targets (what v2 shows). */
  details: z.boolean(),
}), { query: true });

import { field, historyEdges, readHistoryDate, sentMessageText } from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { pageQuery } from '../http/pagination';
import { optionalField, queryFlag, queryInt } from '../http/validation';

/** An optional field that clients also send as null, or as "" meaning none. */
const optional = <S extends ZodTypeAny>(schema: S) => optionalField(schema, true);

/** POST /v2/room/{room}/message. (POST .../notification: notificationBodySchema in contracts.) */
export const messageBody = z.object({ message: sentMessageText });
export type MessageBody = z.output<typeof messageBody>;

const timezone = optional(field.timezone).transform((v) => v ?? 'UTC');

/** `date` and `end-date` stay text here: they are read in `timezone` (see historyBounds). */
export const historyQuery = z.object({
  ...pageQuery,
  date: z.string().optional(),
  'end-date': z.string().optional(),
  timezone,
  /** HipChat's default: the page's oldest message first. */
  reverse: queryFlag(true),
});
export type HistoryQuery = z.output<typeof historyQuery>;

export const latestHistoryQuery = z.object({
  'max-results': queryInt(75, 0, 1000),
  'not-before': z.string().max(100, 'must be a message id').optional(),
  timezone,
});
export type LatestHistoryQuery = z.output<typeof latestHistoryQuery>;

/**
 * The bounds `date` (the latest messages: up to the end of what it names) and `end-date`
 * (the earliest: from its start) give, or the parameter and its rule.
 */
export function historyBounds(q: HistoryQuery):
  { recentOnly: boolean; before?: string; since?: string } | { param: string; problem: string } {
  const date = q.date === undefined || q.date === '' ? 'recent' : q.date;
  let before: Date | undefined;
  if (date !== 'recent') {
    before = readHistoryDate(date, q.timezone)?.end;
    if (!before) return { param: 'date', problem: `must be "recent" or an ISO-8601 date or date-time (got "${date.slice(0, 50)}")` };
  }
  let since: Date | undefined;
  if (q['end-date'] !== undefined && q['end-date'] !== '') {
    since = readHistoryDate(q['end-date'], q.timezone)?.start;
    if (!since) return { param: 'end-date', problem: `must be an ISO-8601 date or date-time (got "${q['end-date'].slice(0, 50)}")` };
  }
  return {
    recentOnly: date === 'recent',
    // Edges past the years 0001-9999 bound nothing (see historyEdges): `date=9999-12-31` is no refusal of `before`.
    ...historyEdges(since, before),
  };
}

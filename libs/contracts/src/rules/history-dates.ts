import { DateTime } from 'luxon';
import { FIRST_INSTANT, LAST_INSTANT } from './instant';

/** What a history date names in a time zone: [start, end), half-open. */
export interface HistorySpan {
  start: Date;
  /** Exclusive: the instant after the last one the date names. */
  end: Date;
  /** A calendar date (YYYY-MM-DD), which names the whole day; otherwise one instant. */
  wholeDay: boolean;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The one reader of history dates, for every API: v1's `date` (a calendar date) and v2's
 * `date` and `end-date` (a calendar date or an ISO-8601 date-time). A calendar date names
 * the whole day in `zone`; a date-time with an offset names that instant, one without is
 * read in `zone`. Null when the text is no date. Stored times have millisecond precision,
 * so an instant is the span [t, t + 1 ms).
 */
export function readHistoryDate(value: string, zone: string): HistorySpan | null {
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const parsed = DateTime.fromISO(text, { zone });
  if (!parsed.isValid) return null;
  const wholeDay = CALENDAR_DATE.test(text);
  const end = wholeDay ? parsed.plus({ days: 1 }) : parsed.plus({ milliseconds: 1 });
  return { start: parsed.toJSDate(), end: end.toJSDate(), wholeDay };
}

/** Whether the text is a real calendar date YYYY-MM-DD (not 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  return CALENDAR_DATE.test(value) && readHistoryDate(value, 'UTC') !== null;
}

/**
 * The edges of a history span as the history command takes them (`since` inclusive, `before`
 * exclusive), within the years 0001 to 9999 its instants are written in: no message is stored
 * outside them, so an edge past them is dropped where it bounds nothing (a `since` before
 * year 1, a `before` after 9999) and otherwise moved to the nearest instant inside. So
 * `date=9999-12-31` in UTC, whose day ends in year 10000, is that day's (empty) page, not a
 * refusal of a `before` the caller never sent.
 */
export function historyEdges(start: Date | undefined, end: Date | undefined): { since?: string; before?: string } {
  const first = FIRST_INSTANT.getTime();
  const last = LAST_INSTANT.getTime();
  const since = start === undefined || start.getTime() < first ? undefined : new Date(Math.min(start.getTime(), last));
  const before = end === undefined || end.getTime() > last ? undefined : new Date(Math.max(end.getTime(), first));
  return { ...(since ? { since: since.toISOString() } : {}), ...(before ? { before: before.toISOString() } : {}) };
}

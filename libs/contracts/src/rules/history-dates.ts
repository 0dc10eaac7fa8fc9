import { DateTime } from 'luxon';

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

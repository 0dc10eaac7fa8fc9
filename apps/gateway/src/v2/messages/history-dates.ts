import { DateTime } from 'luxon';

/**
 * `date` and `end-date` of v2 history: an ISO-8601 date-time (with an offset, or read in
 * `timezone` without one) or a calendar date. A calendar date bounds by the whole day: as
 * `date` (the latest messages) its end, as `end-date` (the earliest) its start.
 */
export function historyInstant(value: string, zone: string, edge: 'start' | 'end'): Date | null {
  const trimmed = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return null;
  const parsed = DateTime.fromISO(trimmed, { zone });
  if (!parsed.isValid) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed) && edge === 'end') return parsed.plus({ days: 1 }).minus({ milliseconds: 1 }).toJSDate();
  return parsed.toJSDate();
}

/** Dates of v2 messages as HipChat wrote them: ISO-8601 in the reader's zone, offset with a colon. */
export function formatMessageDate(iso: string, zone: string): string {
  return DateTime.fromISO(iso, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSSZZ");
}

import { DateTime } from 'luxon';

/** [start, end) in UTC of calendar day `day` (YYYY-MM-DD) in `zone`; null when not a real date. */
export function dayBounds(day: string, zone: string): { start: Date; end: Date } | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const start = DateTime.fromISO(day, { zone });
  if (!start.isValid) return null;
  return { start: start.toJSDate(), end: start.plus({ days: 1 }).toJSDate() };
}

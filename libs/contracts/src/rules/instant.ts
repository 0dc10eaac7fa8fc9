import { text } from './text';

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/** The first and the last instant an API takes: years 0001 to 9999 in UTC, what ISO 8601 writes in four digits. */
export const FIRST_INSTANT = new Date('0001-01-01T00:00:00.000Z');
export const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

/**
 * PostgreSQL refuses a UTC offset beyond ±15:59 and has no year 0; JavaScript writes an
 * instant after 9999 as `+010000-...`, which no ISO reader takes back. So an instant is only
 * one that every process and the database read alike.
 */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether a Date lies within the years 0001 to 9999 (UTC). */
export const isStorableInstant = (d: Date): boolean =>
  d.getTime() >= FIRST_INSTANT.getTime() && d.getTime() <= LAST_INSTANT.getTime();

/**
 * Why a text is not an ISO 8601 instant that can be stored (a date, a time and its offset:
 * `2025-03-01T12:00:00Z`, `2025-03-01T13:00+01:00`), or null. Date.parse alone would take
 * `2025-02-30` as 2 March; PostgreSQL would refuse year 0 or an offset of +18:00 (a 500).
 */
export function instantProblem(v: string): string | null {
  const m = INSTANT.exec(v);
  const shown = v.slice(0, 50);
  const wanted = 'must be an ISO 8601 date and time with its offset, such as 2025-03-01T12:00:00Z';
  if (!m) return `${wanted} (got "${shown}")`;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((p) => (p === undefined ? 0 : Number(p)));
  const [sign, offH, offM] = [m[7] === '-' ? -1 : 1, Number(m[8] ?? 0), Number(m[9] ?? 0)];
  const daysInMonth = month === 2 && isLeap(year) ? 29 : DAYS[month - 1];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59 || offM > 59) {
    return `${wanted}; "${shown}" is not a real date and time`;
  }
  if (offH * 60 + offM > MAX_OFFSET_MINUTES) return `must have a UTC offset from -15:59 to +15:59 (got "${shown}")`;
  // The instant named, whole seconds (the fraction cannot carry it past a bound written to the second).
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute - sign * (offH * 60 + offM), second, 0);
  if (!isStorableInstant(at)) return `must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (got "${shown}")`;
  return null;
}

/** An instant as ISO 8601 text (see instantProblem), kept as given: each reader compares it as a timestamp. */
export const instantSchema = text(instantProblem);

/**
 * Durations as settings write them: a number and a unit, `250ms`, `1.5s`, `5m`, `2h`, `5d`.
 * One reader for every setting that takes one (WEBHOOK_RETRY_SCHEDULE's entries,
 * WEBHOOK_DISABLE_AFTER), so they all take the same forms.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

export interface DurationLimits {
  /** The longest duration taken, in ms, and how the error words it (`24h`). */
  max?: { ms: number; text: string };
}

/**
 * A duration in milliseconds (rounded), longer than 0. Throws an Error stating the rule
 * (the caller names the variable or the entry).
 */
export function parseDuration(text: string, limits: DurationLimits = {}): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i.exec(text.trim());
  if (!m) throw new Error('must be a number and a unit (ms, s, m, h or d), such as 5s or 2h');
  const ms = Math.round(Number(m[1]) * UNITS[m[2].toLowerCase()]);
  if (ms < 1) throw new Error('must be longer than 0');
  if (limits.max && ms > limits.max.ms) throw new Error(`must be at most ${limits.max.text}`);
  return ms;
}

/** A duration in words for people: `5d`, `2h 30m`, `3s`, `250ms` (the two largest units). */
export function formatDuration(ms: number): string {
  if (ms < SECOND) return `${Math.max(0, Math.round(ms))}ms`;
  const parts: string[] = [];
  // Down: a duration is not overstated.
  let rest = Math.floor(ms / SECOND) * SECOND;
  for (const [unit, size] of [['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', SECOND]] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n}${unit}`);
  }
  return parts.filter((p) => !p.startsWith('0')).slice(0, 2).join(' ') || '0s';
}

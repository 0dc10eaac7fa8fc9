import { parseDuration } from '@app/common';

/**
 * When a failed delivery is tried again. The waits come from a schedule like the best webhook
 * services' (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h), each with jitter so that the
 * deliveries that failed together (a receiver down) do not all come back at once, raised to
 * the receiver's Retry-After. The wait itself happens in the broker, in delay queues.
 */

const SECOND = 1000;
const HOUR = 3_600 * SECOND;

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h: seven attempts over about 18 hours. */
export const DEFAULT_RETRY_SCHEDULE_MS: number[] = Object.freeze([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]) as number[];

/** The longest wait one entry may ask for, and the longest Retry-After that is honoured. */
export const MAX_RETRY_DELAY_MS = 24 * HOUR;

/** ±10 % of each scheduled wait. */
export const RETRY_JITTER = 0.1;

/**
 * `WEBHOOK_RETRY_SCHEDULE`: comma-separated waits such as `5s,5m,30m,2h,5h,10h` (each a
 * duration as parseDuration reads it, at most 24h), each between attempts. Throws naming the
 * entry that is not one (the config loader names the variable).
 */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((e) => e.trim());
  if (entries.length === 1 && entries[0] === '') throw new Error('must list at least one wait, such as 5s,5m,30m,2h,5h,10h');
  return entries.map((entry, i) => {
    try {
      return parseDuration(entry, { max: { ms: MAX_RETRY_DELAY_MS, text: '24h' } });
    } catch (err) {
      throw new Error(`entry ${i + 1} ("${entry.slice(0, 40)}") ${(err as Error).message}`);
    }
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** The three HTTP-date forms recipients must accept (RFC 9110 §5.6.7), as [day, month, year, h, m, s]. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP-date as epoch ms, or null (Date.parse would take far more, and roll 32 Oct over). */
function parseHttpDate(v: string, now: Date): number | null {
  const asc = ASCTIME_DATE.exec(v);
  const parts = asc ? [asc[2], asc[1], asc[6], asc[3], asc[4], asc[5]] : (IMF_FIXDATE.exec(v) ?? RFC850_DATE.exec(v))?.slice(1);
  if (!parts) return null;
  const [day, y, hh, mm, ss] = [parts[0], parts[2], parts[3], parts[4], parts[5]].map(Number);
  const month = MONTHS.indexOf(parts[1]);
  let year = y;
  if (parts[2].length === 2) {
    // RFC 9110: a two-digit year more than 50 years ahead is the latest past one.
    year = 2000 + y;
    if (year > now.getUTCFullYear() + 50) year -= 100;
  }
  if (hh > 23 || mm > 59 || ss > 60) return null;
  const at = Date.UTC(year, month, day, hh, mm, Math.min(ss, 59));
  return new Date(at).getUTCDate() === day ? at : null;
}

/**
 * A receiver's `Retry-After` (delay-seconds or an HTTP-date) as a wait in ms from `now`;
 * null when absent or not one of those forms. A date already past is 0; waits are capped at 24 h.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  const v = value?.trim();
  if (!v) return null;
  let ms: number;
  if (/^\d+$/.test(v)) {
    ms = Number(v) * SECOND;
  } else {
    const at = parseHttpDate(v, now);
    if (at === null) return null;
    ms = Math.max(0, at - now.getTime());
  }
  return Math.min(ms, MAX_RETRY_DELAY_MS);
}

/**
 * The wait before the next attempt, or null when the schedule is spent (the delivery has
 * failed for good). `attempt` is how many attempts were made so far (1 after the first).
 */
export function nextAttemptDelay(o: {
  attempt: number;
  schedule: readonly number[];
  retryAfterMs: number | null;
  random?: () => number;
}): number | null {
  if (!Number.isInteger(o.attempt) || o.attempt < 1) throw new RangeError(`attempt must be a whole number from 1 (got ${o.attempt})`);
  const scheduled = o.schedule[o.attempt - 1];
  if (scheduled === undefined) return null;
  const random = o.random ?? Math.random;
  const jittered = Math.round(scheduled * (1 + RETRY_JITTER * (2 * random() - 1)));
  if (o.retryAfterMs === null) return jittered;
  // A receiver cannot push one delivery past twice the longest wait the operator chose.
  const ceiling = o.schedule[o.schedule.length - 1] * 2;
  return Math.max(jittered, Math.min(o.retryAfterMs, ceiling));
}

/**
 * The delay queue a wait goes to: the index of the smallest tier ≥ the wait. The broker keeps
 * one queue per tier and each message carries its own expiration; a queue only expires its
 * head, so a message may wait behind longer ones but never longer than its tier. A wait above
 * every tier goes to the largest (its expiration is then best clamped to that tier).
 */
export function delayTier(delayMs: number, tiers: readonly number[]): number {
  if (tiers.length === 0) throw new RangeError('at least one delay tier is needed');
  let best = -1;
  let largest = 0;
  tiers.forEach((tier, i) => {
    if (tier >= delayMs && (best === -1 || tier < tiers[best])) best = i;
    if (tier > tiers[largest]) largest = i;
  });
  return best === -1 ? largest : best;
}

/**
 * Delay tiers that hold every wait nextAttemptDelay can give for `schedule`: each entry plus
 * its largest jitter, and the Retry-After ceiling. (Tiers equal to the bare entries would send
 * every wait jittered upwards to the next tier, to wait behind messages up to that long.)
 * Where two of them are more than twice apart, tiers doubling from the shorter fill the gap:
 * a Retry-After wait between two entries goes to the smallest tier that holds it, and may
 * wait there behind that tier's longest messages, so the gaps bound how late it can come back
 * (under twice what it asked: a 429 asking for 60 s is tried again within 88 s, not 330 s).
 */
export function retryDelayTiers(schedule: readonly number[]): number[] {
  if (schedule.length === 0) return [];
  // Rounded as nextAttemptDelay rounds: no jittered wait exceeds it.
  const own = schedule.map((ms) => Math.round(ms * (1 + RETRY_JITTER)));
  own.push(schedule[schedule.length - 1] * 2);
  const tiers: number[] = [];
  for (const tier of [...new Set(own)].sort((x, y) => x - y)) {
    for (let last = tiers[tiers.length - 1]; last !== undefined && tier > last * 2; last *= 2) tiers.push(last * 2);
    tiers.push(tier);
  }
  return tiers;
}

/**
 * Whether an attempt's outcome is worth another attempt. `null` is no answer (connection
 * refused or reset, timeout, refused by the outbound guard at connect time).
 * - 2xx: delivered, nothing to retry.
 * - 408, 425, 429 and 5xx: the receiver says "later".
 * - Other 4xx: the receiver refuses this request; sending it again would be refused again.
 * - 3xx: redirects are not followed (the target would escape the outbound address check, and
 *   the registered URL is the one an admin approved), so the attempt failed. It is retried,
 *   as Stripe and Svix do: a redirect is often passing (maintenance, a proxy's login page)
 *   and the owner, who sees the 3xx in the attempt log, can fix the URL while retries last.
 * - Anything else (1xx, beyond 599): no usable answer, treated like none.
 */
export function isRetryable(status: number | null): boolean {
  if (status === null) return true;
  if (status >= 200 && status <= 299) return false;
  if (status >= 400 && status <= 499) return status === 408 || status === 425 || status === 429;
  return true;
}

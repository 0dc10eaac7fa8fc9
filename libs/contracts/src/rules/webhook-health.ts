/**
 * How the outcomes of a webhook's attempts add up, written once for the two places that
 * add them: a dispatcher replica gathering its attempts between two reports (and taking
 * back a report it could not send), and the rooms service adding each report to what it
 * keeps. Reports come from several replicas, in no particular order, so the rule goes by
 * the times the reports carry rather than by their arrival.
 */

/** Attempts' outcomes added up; times are epoch milliseconds. */
export interface HealthTally {
  /** The latest successful attempt, or null. */
  lastSuccessAt: number | null;
  /** Failed attempts after lastSuccessAt (all of them when it is null). */
  failures: number;
  /** The first of those failures (null when there are none). */
  firstFailureAt: number | null;
  /** The latest failed attempt, whether or not a success came after it. */
  lastFailureAt: number | null;
  lastError: string | null;
}

export const EMPTY_TALLY: Readonly<HealthTally> = Object.freeze({
  lastSuccessAt: null, failures: 0, firstFailureAt: null, lastFailureAt: null, lastError: null,
});

/** One attempt's outcome as a tally: `error` null for a success. */
export function tallyOf(at: number, error: string | null): HealthTally {
  return error === null
    ? { lastSuccessAt: at, failures: 0, firstFailureAt: null, lastFailureAt: null, lastError: null }
    : { lastSuccessAt: null, failures: 1, firstFailureAt: at, lastFailureAt: at, lastError: error };
}

const latest = (...times: Array<number | null>): number | null =>
  times.reduce<number | null>((m, t) => (t !== null && (m === null || t > m) ? t : m), null);
const earliest = (...times: Array<number | null>): number | null =>
  times.reduce<number | null>((m, t) => (t !== null && (m === null || t < m) ? t : m), null);

/**
 * The failures of a tally that came after `boundary` (a success, or a reset). All of them
 * when its own success is the boundary or its first failure is later; when only its last
 * failure is later, one is known for certain (the tally cannot tell how many others were).
 */
function failuresAfter(t: HealthTally, boundary: number | null): { failures: number; since: number | null } {
  if (t.failures === 0) return { failures: 0, since: null };
  if (boundary === null || (t.lastSuccessAt !== null && t.lastSuccessAt >= boundary)
    || (t.firstFailureAt !== null && t.firstFailureAt > boundary)) {
    return { failures: t.failures, since: t.firstFailureAt };
  }
  if (t.lastFailureAt !== null && t.lastFailureAt > boundary) return { failures: 1, since: t.lastFailureAt };
  return { failures: 0, since: null };
}

/**
 * Two tallies as one: a newer success resets the count to the failures after it; failures
 * with no newer success add up, keeping the earliest. `resetAt` (the webhook was enabled
 * again then) counts as a success for the count, not for lastSuccessAt: a report of
 * failures from before it, arriving late, adds nothing.
 */
export function mergeHealth(a: HealthTally, b: HealthTally, resetAt: number | null = null): HealthTally {
  const lastSuccessAt = latest(a.lastSuccessAt, b.lastSuccessAt);
  const boundary = latest(lastSuccessAt, resetAt);
  const fromA = failuresAfter(a, boundary);
  const fromB = failuresAfter(b, boundary);
  const failures = fromA.failures + fromB.failures;
  const lastFailureAt = latest(a.lastFailureAt, b.lastFailureAt);
  // The error of the later failure (b's on a tie: the newer report).
  const errorOf = b.lastFailureAt !== null && b.lastFailureAt === lastFailureAt ? b : a;
  return {
    lastSuccessAt,
    failures,
    firstFailureAt: failures > 0 ? earliest(fromA.since, fromB.since) : null,
    lastFailureAt,
    lastError: errorOf.lastError ?? a.lastError ?? b.lastError,
  };
}

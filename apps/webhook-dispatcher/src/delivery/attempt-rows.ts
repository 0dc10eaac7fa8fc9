import type { AttemptRecord } from './delivery-decisions';

/** One `webhook_attempts` row to write: the attempt's first request, and any further ones (`repeats`). */
export interface AttemptRowToWrite {
  record: AttemptRecord;
  /** Further requests of the same attempt in this write, as the `repeats` column holds them; null: none. */
  repeats: RepeatedRequest[] | null;
}

/** A further request of an attempt, as an element of `webhook_attempts.repeats`. */
export interface RepeatedRequest {
  started_at: string;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response_excerpt: string | null;
  response_headers: Record<string, string> | null;
}

/**
 * The rows of a batch of attempt records: one per (delivery, attempt), the earliest request
 * first and the others as its repeats (an upsert may not touch a row twice in one statement).
 * The same request handed in twice (same start) counts once.
 */
export function attemptRows(records: readonly AttemptRecord[]): AttemptRowToWrite[] {
  const byAttempt = new Map<string, AttemptRecord[]>();
  for (const r of records) {
    const key = `${r.deliveryId}:${r.attempt}`;
    const list = byAttempt.get(key);
    if (!list) byAttempt.set(key, [r]);
    else if (!list.some((seen) => seen.startedAt.getTime() === r.startedAt.getTime())) list.push(r);
  }
  return [...byAttempt.values()].map((list) => {
    if (list.length === 1) return { record: list[0], repeats: null };
    const [first, ...rest] = [...list].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
    return { record: first, repeats: rest.map(repeatOf) };
  });
}

function repeatOf(r: AttemptRecord): RepeatedRequest {
  return {
    started_at: r.startedAt.toISOString(),
    duration_ms: r.durationMs,
    status: r.status,
    error: r.error,
    response_excerpt: r.responseExcerpt,
    response_headers: r.responseHeaders,
  };
}

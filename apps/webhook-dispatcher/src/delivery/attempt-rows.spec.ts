import { attemptRows } from './attempt-rows';
import type { AttemptRecord } from './delivery-decisions';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, 0) + ms);
const record = (deliveryId: string, attempt: number, startMs: number, status: number | null): AttemptRecord => ({
  deliveryId, attempt, startedAt: at(startMs), durationMs: 5, status, error: status === null ? 'connect ECONNREFUSED' : null,
  responseExcerpt: null, responseHeaders: status === null ? null : { 'content-length': '0' },
});

describe('attemptRows', () => {
  it('writes a row per attempt when each was made once', () => {
    const rows = attemptRows([record('d1', 1, 0, 500), record('d1', 2, 5_000, 204), record('d2', 1, 10, 204)]);
    expect(rows.map((r) => [r.record.deliveryId, r.record.attempt, r.repeats])).toEqual([['d1', 1, null], ['d1', 2, null], ['d2', 1, null]]);
  });

  it('folds further requests of the same attempt into the earliest one, oldest first', () => {
    const rows = attemptRows([record('d1', 1, 40, 500), record('d1', 1, 0, 204), record('d1', 1, 90, null)]);
    expect(rows).toHaveLength(1);
    expect(rows[0].record.status).toBe(204);
    expect(rows[0].repeats).toEqual([
      { started_at: at(40).toISOString(), duration_ms: 5, status: 500, error: null, response_excerpt: null, response_headers: { 'content-length': '0' } },
      { started_at: at(90).toISOString(), duration_ms: 5, status: null, error: 'connect ECONNREFUSED', response_excerpt: null, response_headers: null },
    ]);
  });

  it('counts the same request handed in twice once', () => {
    const rows = attemptRows([record('d1', 1, 0, 204), record('d1', 1, 0, 204)]);
    expect(rows).toEqual([expect.objectContaining({ repeats: null })]);
  });
});

import { EMPTY_TALLY, HealthTally, mergeHealth, tallyOf } from './webhook-health';

const failed = (from: number, to: number, count: number, error = 'HTTP 500'): HealthTally =>
  ({ lastSuccessAt: null, failures: count, firstFailureAt: from, lastFailureAt: to, lastError: error });
const ok = (at: number): HealthTally => tallyOf(at, null);
/** Outcomes one after the other, as a dispatcher adds them up. */
const run = (...outcomes: Array<[number, string | null]>) => outcomes.reduce((t, [at, e]) => mergeHealth(t, tallyOf(at, e)), EMPTY_TALLY as HealthTally);

describe('mergeHealth', () => {
  it('adds up failures that no success follows, keeping the earliest and the latest error', () => {
    expect(run([10, 'HTTP 500'], [20, 'timeout'], [30, 'HTTP 502'])).toEqual({
      lastSuccessAt: null, failures: 3, firstFailureAt: 10, lastFailureAt: 30, lastError: 'HTTP 502',
    });
    expect(mergeHealth(failed(50, 60, 2, 'timeout'), failed(10, 40, 5, 'HTTP 500'))).toEqual({
      lastSuccessAt: null, failures: 7, firstFailureAt: 10, lastFailureAt: 60, lastError: 'timeout',
    });
  });

  it('a newer success resets the count to the failures reported after it', () => {
    expect(run([10, 'HTTP 500'], [20, 'HTTP 500'], [30, null])).toEqual({
      lastSuccessAt: 30, failures: 0, firstFailureAt: null, lastFailureAt: 20, lastError: 'HTTP 500',
    });
    const stored = failed(10, 20, 2);
    const report: HealthTally = { lastSuccessAt: 30, failures: 1, firstFailureAt: 40, lastFailureAt: 40, lastError: 'connection' };
    expect(mergeHealth(stored, report)).toEqual({ lastSuccessAt: 30, failures: 1, firstFailureAt: 40, lastFailureAt: 40, lastError: 'connection' });
  });

  it('keeps failures that came after a success reported late (another replica\'s, older)', () => {
    const stored: HealthTally = { lastSuccessAt: 5, failures: 3, firstFailureAt: 11, lastFailureAt: 15, lastError: 'HTTP 500' };
    expect(mergeHealth(stored, ok(10))).toEqual({ lastSuccessAt: 10, failures: 3, firstFailureAt: 11, lastFailureAt: 15, lastError: 'HTTP 500' });
    // A success in the middle of them: at least the last failure came after it.
    expect(mergeHealth(failed(8, 15, 4), ok(10))).toEqual({ lastSuccessAt: 10, failures: 1, firstFailureAt: 15, lastFailureAt: 15, lastError: 'HTTP 500' });
  });

  it('is the same whichever of two reports comes first', () => {
    const a: HealthTally = { lastSuccessAt: 10, failures: 2, firstFailureAt: 12, lastFailureAt: 14, lastError: 'x' };
    const b = failed(13, 20, 3, 'y');
    expect(mergeHealth(a, b)).toEqual(mergeHealth(b, a));
    expect(mergeHealth(a, b)).toMatchObject({ lastSuccessAt: 10, failures: 5, firstFailureAt: 12, lastFailureAt: 20, lastError: 'y' });
  });

  it('counts nothing from before a reset, and keeps the last real success', () => {
    const stored: HealthTally = { lastSuccessAt: 5, failures: 0, firstFailureAt: null, lastFailureAt: 40, lastError: 'HTTP 500' };
    // Failures up to 40 reported after the webhook was enabled again at 50: nothing to count.
    expect(mergeHealth(stored, failed(20, 40, 6), 50)).toEqual({
      lastSuccessAt: 5, failures: 0, firstFailureAt: null, lastFailureAt: 40, lastError: 'HTTP 500',
    });
    expect(mergeHealth(stored, failed(60, 70, 2), 50)).toMatchObject({ lastSuccessAt: 5, failures: 2, firstFailureAt: 60 });
  });

  it('reads one attempt as a tally', () => {
    expect(tallyOf(7, null)).toEqual({ lastSuccessAt: 7, failures: 0, firstFailureAt: null, lastFailureAt: null, lastError: null });
    expect(tallyOf(7, 'timeout')).toEqual({ lastSuccessAt: null, failures: 1, firstFailureAt: 7, lastFailureAt: 7, lastError: 'timeout' });
  });
});

import { describeIssue } from '@app/contracts';
import { decodeCursor, encodeCursor } from './delivery-cursor';
import { deliveryListQuery } from './webhook-deliveries.schemas';

const ID = '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b';
const problemOf = (after: string) => {
  const r = deliveryListQuery.safeParse({ after });
  return r.success ? null : describeIssue(r.error.issues[0]);
};

describe('the delivery log\'s cursor (links.next `after`)', () => {
  it('gives back the position it was made of, to the microsecond, in URL-safe characters', () => {
    const position = { createdAt: '2026-03-01T12:00:00.123456Z', id: ID };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
    // Two deliveries of one millisecond have cursors of their own (a Date would have made them one).
    expect(encodeCursor({ createdAt: '2026-03-01T12:00:00.123457Z', id: ID })).not.toBe(cursor);
    expect(decodeCursor(encodeCursor({ createdAt: '0001-01-01T00:00:00.000000Z', id: ID.toUpperCase() })))
      .toEqual({ createdAt: '0001-01-01T00:00:00.000000Z', id: ID });
  });

  it('reads `after` of the list\'s query into the position the dispatcher is asked from; empty is absent', () => {
    const cursor = encodeCursor({ createdAt: '2026-03-01T12:00:00.000001Z', id: ID });
    expect(deliveryListQuery.parse({ after: cursor, 'start-index': '200' })).toEqual({
      'start-index': 200, 'max-results': 100, after: { createdAt: '2026-03-01T12:00:00.000001Z', id: ID },
    });
    expect(deliveryListQuery.parse({ after: '' })).toEqual({ 'start-index': 0, 'max-results': 100 });
  });

  it('answers anything else with a 400 naming after and its rule, never reaching the dispatcher', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const wrong = [
      'not a cursor', 'abc', '!!!!', 'x'.repeat(201),
      // Base64url of what is not a position: no id, a bad id, a time cut to the millisecond, a local time, no real date, year 0, more parts.
      b64('2026-03-01T12:00:00.123456Z'), b64(`2026-03-01T12:00:00.123456Z ${ID.slice(1)}`), b64(`2026-03-01T12:00:00.123Z ${ID}`),
      b64(`2026-03-01T12:00:00.123456+01:00 ${ID}`), b64(`2026-02-30T12:00:00.123456Z ${ID}`), b64(`0000-01-01T00:00:00.000000Z ${ID}`),
      b64(`2026-03-01T12:00:00.123456Z ${ID} 1`), b64(`2026-03-01T12:00:00.123456Z\u0000 ${ID}`),
    ];
    for (const after of wrong) {
      expect(decodeCursor(after)).toBeNull();
      expect(problemOf(after)).toBe(`after: must be a cursor as the list's links.next gives it (got "${after.slice(0, 50)}")`);
    }
  });
});

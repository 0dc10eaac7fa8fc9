import { ApiError } from '../../shared/api-error';
import { readLastEventId } from './last-event-id';

describe('readLastEventId', () => {
  it('reads the header first, else the query parameter; none (or empty) is null', () => {
    expect(readLastEventId('12', '3')).toBe(12);
    expect(readLastEventId(undefined, '3')).toBe(3);
    expect(readLastEventId('', '0')).toBe(0);
    expect(readLastEventId(undefined, undefined)).toBeNull();
    expect(readLastEventId('', '')).toBeNull();
  });

  it('answers 400 naming where the bad value came from', () => {
    const err = (() => {
      try {
        readLastEventId(undefined, 'abc');
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect(err!.status).toBe(400);
    expect(err!.message).toBe('last_event_id: must be the id of an event of this stream, a whole number (got "abc")');
    expect(() => readLastEventId('-1', undefined)).toThrow(/^Last-Event-ID: must be/);
    expect(() => readLastEventId(undefined, ['1', '2'])).toThrow(/^last_event_id: must be/);
  });
});

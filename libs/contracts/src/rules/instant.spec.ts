import { instantProblem, instantSchema, isStorableInstant } from './instant';

describe('instantProblem', () => {
  it('takes an ISO 8601 date and time with its offset', () => {
    for (const v of ['2025-03-01T12:00:00Z', '2025-03-01T13:00+01:00', '2025-03-01t12:00:00.123456z', '2024-02-29T00:00:00-0500',
      '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2025-01-01T00:00:00+15:59', '2025-01-01T00:00:00-15:59', '1900-01-01T00:00:00Z']) {
      expect([v, instantProblem(v)]).toEqual([v, null]);
    }
  });

  it('refuses what is no date and time, or no real one', () => {
    expect(instantProblem('yesterday')).toBe('must be an ISO 8601 date and time with its offset, such as 2025-03-01T12:00:00Z (got "yesterday")');
    expect(instantProblem('2025-03-01T12:00:00')).toMatch(/^must be an ISO 8601 date and time with its offset/);
    expect(instantProblem('2025-02-30T12:00:00Z')).toMatch(/"2025-02-30T12:00:00Z" is not a real date and time$/);
    expect(instantProblem('2025-02-29T12:00:00Z')).toMatch(/is not a real date and time$/);
    expect(instantProblem('1900-02-29T00:00:00Z')).toMatch(/is not a real date and time$/);
    expect(instantProblem('2025-01-01T24:00:00Z')).toMatch(/is not a real date and time$/);
    expect(instantProblem('2025-01-01T00:00:00+01:60')).toMatch(/is not a real date and time$/);
  });

  it('refuses an offset PostgreSQL cannot read (beyond ±15:59), naming the rule', () => {
    for (const v of ['2025-01-01T00:00:00+16:00', '2025-01-01T00:00:00+18:00', '2025-01-01T00:00:00+20:00', '2025-01-01T00:00:00-23:59', '2025-01-01T00:00:00+2359']) {
      expect(instantProblem(v)).toBe(`must have a UTC offset from -15:59 to +15:59 (got "${v}")`);
    }
  });

  it('refuses an instant outside the years 0001 to 9999 in UTC (PostgreSQL has no year 0)', () => {
    for (const v of ['0000-01-01T00:00:00Z', '0000-12-31T23:59:59Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-00:01', '9999-12-31T20:00:00-15:00']) {
      expect(instantProblem(v)).toBe(`must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (got "${v}")`);
    }
    expect(instantProblem('0001-01-01T00:59:00+00:59')).toBeNull();
  });

  it('as a schema, keeps the text as given', () => {
    expect(instantSchema.parse('2025-03-01T13:00+01:00')).toBe('2025-03-01T13:00+01:00');
    expect(instantSchema.safeParse('0000-01-01T00:00:00Z').success).toBe(false);
  });
});

describe('isStorableInstant', () => {
  it('is the years 0001 to 9999 in UTC', () => {
    expect(isStorableInstant(new Date('0001-01-01T00:00:00Z'))).toBe(true);
    expect(isStorableInstant(new Date('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(isStorableInstant(new Date('0000-12-31T23:59:59.999Z'))).toBe(false);
    expect(isStorableInstant(new Date(Date.UTC(10000, 0, 1)))).toBe(false);
  });
});

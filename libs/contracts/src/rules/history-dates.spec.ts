import { isCalendarDate, readHistoryDate } from './history-dates';

describe('readHistoryDate', () => {
  it('reads a date-time with an offset as that instant, whatever the zone', () => {
    expect(readHistoryDate('2024-03-01T10:00:00Z', 'America/New_York')).toEqual({
      start: new Date('2024-03-01T10:00:00Z'), end: new Date('2024-03-01T10:00:00.001Z'), wholeDay: false,
    });
    expect(readHistoryDate('2024-03-01T10:00:00+02:00', 'UTC')?.start).toEqual(new Date('2024-03-01T08:00:00Z'));
  });

  it('reads a date-time without an offset in the zone', () => {
    expect(readHistoryDate('2024-03-01T10:00:00', 'America/New_York')?.start).toEqual(new Date('2024-03-01T15:00:00Z'));
  });

  it('bounds a calendar date by the whole day in the zone', () => {
    expect(readHistoryDate('2024-03-01', 'Europe/Paris')).toEqual({
      start: new Date('2024-02-29T23:00:00Z'), end: new Date('2024-03-01T23:00:00Z'), wholeDay: true,
    });
    // The v1 example: 19 November 2010 in Los Angeles.
    expect(readHistoryDate('2010-11-19', 'America/Los_Angeles')).toEqual({
      start: new Date('2010-11-19T08:00:00Z'), end: new Date('2010-11-20T08:00:00Z'), wholeDay: true,
    });
  });

  it('refuses what is no date', () => {
    for (const v of ['recent', 'yesterday', '2024-02-30', '2010-02-30', '2024-13-01T00:00:00Z', '', '1700000000']) {
      expect(readHistoryDate(v, 'UTC')).toBeNull();
    }
  });
});

describe('isCalendarDate', () => {
  it('takes real calendar dates only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-02-29T10:00:00Z')).toBe(false);
    expect(isCalendarDate('recent')).toBe(false);
  });
});

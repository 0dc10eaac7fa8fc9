import { historyEdges, isCalendarDate, readHistoryDate } from './history-dates';

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

describe('historyEdges', () => {
  it('writes the edges of a span as they are, within the years 0001 to 9999', () => {
    const day = readHistoryDate('2024-03-01', 'Europe/Paris')!;
    expect(historyEdges(day.start, day.end)).toEqual({ since: '2024-02-29T23:00:00.000Z', before: '2024-03-01T23:00:00.000Z' });
    expect(historyEdges(undefined, day.end)).toEqual({ before: '2024-03-01T23:00:00.000Z' });
    expect(historyEdges(day.start, undefined)).toEqual({ since: '2024-02-29T23:00:00.000Z' });
  });

  it('drops an edge that bounds nothing: the last day of 9999 in UTC ends in year 10000, the first of year 1 fourteen hours east of UTC starts in year 0', () => {
    const last = readHistoryDate('9999-12-31', 'UTC')!;
    expect(historyEdges(last.start, last.end)).toEqual({ since: '9999-12-31T00:00:00.000Z' });
    const first = readHistoryDate('0001-01-01', 'UTC+14')!;
    expect(historyEdges(first.start, first.end)).toEqual({ before: '0001-01-01T10:00:00.000Z' });
    // In Kiritimati the last day of 9999 ends within it: both edges stay.
    const east = readHistoryDate('9999-12-31', 'Pacific/Kiritimati')!;
    expect(historyEdges(east.start, east.end)).toEqual({ since: '9999-12-30T10:00:00.000Z', before: '9999-12-31T10:00:00.000Z' });
  });

  it('moves an edge past the years inside them where it bounds something: a span wholly outside them is empty', () => {
    expect(historyEdges(new Date(Date.UTC(10000, 0, 1, 12)), undefined)).toEqual({ since: '9999-12-31T23:59:59.999Z' });
    expect(historyEdges(undefined, new Date('0000-06-01T00:00:00Z'))).toEqual({ before: '0001-01-01T00:00:00.000Z' });
  });
});

import { formatMessageDate, historyInstant } from './history-dates';

describe('historyInstant', () => {
  it('reads a date-time with an offset as that instant, whatever the zone', () => {
    expect(historyInstant('2024-03-01T10:00:00Z', 'America/New_York', 'end')).toEqual(new Date('2024-03-01T10:00:00Z'));
    expect(historyInstant('2024-03-01T10:00:00+02:00', 'UTC', 'start')).toEqual(new Date('2024-03-01T08:00:00Z'));
  });

  it('reads a date-time without an offset in the zone', () => {
    expect(historyInstant('2024-03-01T10:00:00', 'America/New_York', 'end')).toEqual(new Date('2024-03-01T15:00:00Z'));
  });

  it('bounds a calendar date by the whole day in the zone', () => {
    expect(historyInstant('2024-03-01', 'Europe/Paris', 'start')).toEqual(new Date('2024-02-29T23:00:00Z'));
    expect(historyInstant('2024-03-01', 'Europe/Paris', 'end')).toEqual(new Date('2024-03-01T22:59:59.999Z'));
  });

  it('refuses what is no date', () => {
    for (const v of ['recent', 'yesterday', '2024-02-30', '2024-13-01T00:00:00Z', '', '1700000000']) {
      expect(historyInstant(v, 'UTC', 'end')).toBeNull();
    }
  });
});

describe('formatMessageDate', () => {
  it('writes the instant in the zone with its offset', () => {
    expect(formatMessageDate('2010-11-19T23:48:19.123Z', 'America/Los_Angeles')).toBe('2010-11-19T15:48:19.123-08:00');
    expect(formatMessageDate('2010-11-19T23:48:19.123Z', 'UTC')).toBe('2010-11-19T23:48:19.123+00:00');
  });
});

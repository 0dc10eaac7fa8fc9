import { dayBounds } from './history-date';

describe('dayBounds', () => {
  it('computes the calendar day in the zone', () => {
    expect(dayBounds('2010-11-19', 'America/Los_Angeles')).toEqual({
      start: new Date('2010-11-19T08:00:00Z'), end: new Date('2010-11-20T08:00:00Z'),
    });
    expect(dayBounds('2010-02-30', 'UTC')).toBeNull();
    expect(dayBounds('yesterday', 'UTC')).toBeNull();
  });
});

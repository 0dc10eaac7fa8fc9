import {
  DEFAULT_RETRY_SCHEDULE_MS, delayTier, isRetryable, MAX_RETRY_DELAY_MS, nextAttemptDelay, parseRetryAfter,
  parseRetrySchedule, retryDelayTiers,
} from './retry-policy';

const schedule = DEFAULT_RETRY_SCHEDULE_MS;
const noJitter = () => 0.5;

describe('DEFAULT_RETRY_SCHEDULE_MS', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and cannot be changed by a caller', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual(parseRetrySchedule('5s,5m,30m,2h,5h,10h'));
    expect(() => DEFAULT_RETRY_SCHEDULE_MS.push(1)).toThrow(TypeError);
  });
});

describe('parseRetrySchedule', () => {
  it('reads comma-separated durations with units, spaces allowed', () => {
    expect(parseRetrySchedule('5s,5m,30m,2h,5h,10h')).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(parseRetrySchedule(' 250ms , 1.5s, 1d ,2H')).toEqual([250, 1_500, 86_400_000, 7_200_000]);
    expect(parseRetrySchedule('10s')).toEqual([10_000]);
  });

  it.each([
    ['5s,5x,30m', /^entry 2 \("5x"\) must be a number and a unit/],
    ['5s,,30m', /^entry 2 \(""\) must be a number and a unit/],
    ['5s,30', /^entry 2 \("30"\) must be a number and a unit/],
    ['-5s', /^entry 1 \("-5s"\) must be a number and a unit/],
    ['0s', /^entry 1 \("0s"\) must be longer than 0/],
    ['5s,25h', /^entry 2 \("25h"\) must be at most 24h/],
    ['', /must list at least one wait/],
    ['  ', /must list at least one wait/],
  ])('refuses %j naming the entry', (text, message) => {
    expect(() => parseRetrySchedule(text)).toThrow(message);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2015-10-21T07:28:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads the three HTTP-date forms as the time left from now', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:30:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:30:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter('Wed Oct 21 07:30:00 2015', now)).toBe(120_000);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', new Date('1994-11-06T08:49:00Z'))).toBe(37_000);
    // A two-digit year more than 50 years ahead is in the past century.
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', new Date('1994-11-06T08:49:00Z'))).toBe(37_000);
    expect(parseRetryAfter('Monday, 01-Jan-35 00:00:00 GMT', new Date('2034-12-31T23:59:00Z'))).toBe(60_000);
  });

  it('makes a date already past 0', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0);
  });

  it('caps the wait at 24 h', () => {
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_DELAY_MS);
    expect(parseRetryAfter('Fri, 21 Oct 2016 07:30:00 GMT', now)).toBe(MAX_RETRY_DELAY_MS);
  });

  it.each([
    undefined, '', '  ', '1.5', '-3', 'soon', '12abc', '2024-01-01', '2015-10-21T07:30:00Z', 'Wed, 32 Oct 2015 07:30:00 GMT',
    'Wed, 31 Feb 2015 07:30:00 GMT', 'Wed, 21 Oct 2015 24:30:00 GMT', 'Wed, 21 Oct 2015 07:30:00 UTC', 'Wed, 21 Oct 2015 07:30:00',
  ])(
    'is null for %j', (value) => {
      expect(parseRetryAfter(value, now)).toBeNull();
    },
  );
});

describe('nextAttemptDelay', () => {
  it('follows the schedule: after attempt n comes the n-th wait; null once it is spent', () => {
    expect(schedule.map((_, i) => nextAttemptDelay({ attempt: i + 1, schedule, retryAfterMs: null, random: noJitter })))
      .toEqual(schedule);
    expect(nextAttemptDelay({ attempt: schedule.length + 1, schedule, retryAfterMs: null })).toBeNull();
    expect(nextAttemptDelay({ attempt: 1, schedule: [], retryAfterMs: 1_000 })).toBeNull();
  });

  it('adds ±10 % jitter', () => {
    expect(nextAttemptDelay({ attempt: 2, schedule, retryAfterMs: null, random: () => 0 })).toBe(270_000);
    expect(nextAttemptDelay({ attempt: 2, schedule, retryAfterMs: null, random: () => 0.999999 })).toBe(330_000);
    for (let i = 0; i < 200; i++) {
      const d = nextAttemptDelay({ attempt: 1, schedule, retryAfterMs: null })!;
      expect(d).toBeGreaterThanOrEqual(4_500);
      expect(d).toBeLessThanOrEqual(5_500);
    }
  });

  it('is raised to Retry-After when that is longer, never lowered', () => {
    expect(nextAttemptDelay({ attempt: 1, schedule, retryAfterMs: 60_000, random: noJitter })).toBe(60_000);
    expect(nextAttemptDelay({ attempt: 2, schedule, retryAfterMs: 60_000, random: noJitter })).toBe(300_000);
    expect(nextAttemptDelay({ attempt: 1, schedule, retryAfterMs: 0, random: noJitter })).toBe(5_000);
  });

  it('caps Retry-After at twice the last scheduled wait', () => {
    const short = [1_000, 2_000];
    expect(nextAttemptDelay({ attempt: 1, schedule: short, retryAfterMs: 3_600_000, random: noJitter })).toBe(4_000);
    expect(nextAttemptDelay({ attempt: 1, schedule, retryAfterMs: MAX_RETRY_DELAY_MS, random: noJitter })).toBe(72_000_000);
  });

  it('refuses an attempt count below 1', () => {
    expect(() => nextAttemptDelay({ attempt: 0, schedule, retryAfterMs: null })).toThrow(RangeError);
    expect(() => nextAttemptDelay({ attempt: 1.5, schedule, retryAfterMs: null })).toThrow(RangeError);
  });
});

describe('delayTier', () => {
  const tiers = [5_500, 330_000, 1_980_000, 7_920_000, 19_800_000, 39_600_000, 72_000_000];

  it('is the index of the smallest tier at least as long as the wait', () => {
    expect(delayTier(1, tiers)).toBe(0);
    expect(delayTier(5_500, tiers)).toBe(0);
    expect(delayTier(5_501, tiers)).toBe(1);
    expect(delayTier(3_600_000, tiers)).toBe(3);
    expect(delayTier(72_000_000, tiers)).toBe(6);
  });

  it('does not need the tiers sorted', () => {
    expect(delayTier(4_000, [60_000, 5_000, 10_000])).toBe(1);
    expect(delayTier(6_000, [60_000, 5_000, 10_000])).toBe(2);
  });

  it('sends a wait above every tier to the largest', () => {
    expect(delayTier(100_000_000, tiers)).toBe(6);
    expect(delayTier(100_000, [60_000, 5_000, 10_000])).toBe(0);
  });

  it('needs at least one tier', () => {
    expect(() => delayTier(1, [])).toThrow(RangeError);
  });
});

describe('retryDelayTiers', () => {
  it('covers each wait with its jitter and the Retry-After ceiling, no two tiers more than twice apart', () => {
    expect(retryDelayTiers(schedule)).toEqual([
      5_500, 11_000, 22_000, 44_000, 88_000, 176_000, 330_000, 660_000, 1_320_000, 1_980_000, 3_960_000, 7_920_000,
      15_840_000, 19_800_000, 39_600_000, 72_000_000,
    ]);
    expect(retryDelayTiers([1_000, 1_000])).toEqual([1_100, 2_000]);
    expect(retryDelayTiers([200, 400])).toEqual([220, 440, 800]);
    expect(retryDelayTiers([])).toEqual([]);
  });

  it('puts every wait nextAttemptDelay gives in a tier of its own entry, never a later one\'s', () => {
    const tiers = retryDelayTiers(schedule);
    for (const [i, r] of [[0, 0], [0, 0.999999], [3, 0], [3, 0.999999], [5, 0.999999]]) {
      const delay = nextAttemptDelay({ attempt: i + 1, schedule, retryAfterMs: null, random: () => r })!;
      const tier = tiers[delayTier(delay, tiers)];
      expect(tier).toBeGreaterThanOrEqual(delay);
      expect(tier).toBeLessThanOrEqual(Math.round(schedule[i] * 1.1));
    }
  });

  it('puts a Retry-After wait in a tier less than twice as long, so that it comes back within that', () => {
    const tiers = retryDelayTiers(schedule);
    for (const asked of [6_000, 30_000, 60_000, 600_000, 3_600_000, 10 * 3_600_000]) {
      const delay = nextAttemptDelay({ attempt: 1, schedule, retryAfterMs: asked, random: noJitter })!;
      expect(delay).toBe(asked);
      expect(tiers[delayTier(delay, tiers)]).toBeLessThan(2 * asked);
    }
    expect(tiers[delayTier(60_000, tiers)]).toBe(88_000);
  });

  it('still holds the longest wait a receiver can ask for in the last tier', () => {
    const tiers = retryDelayTiers(schedule);
    const raised = nextAttemptDelay({ attempt: 1, schedule, retryAfterMs: MAX_RETRY_DELAY_MS, random: noJitter })!;
    expect(delayTier(raised, tiers)).toBe(tiers.length - 1);
  });
});

describe('isRetryable', () => {
  it.each([
    [null, true], [408, true], [425, true], [429, true], [500, true], [502, true], [503, true], [504, true], [599, true],
    [301, true], [302, true], [307, true], [308, true], [304, true],
    [400, false], [401, false], [403, false], [404, false], [410, false], [413, false], [422, false],
    [200, false], [201, false], [202, false], [204, false],
    [100, true], [600, true],
  ])('%p → %p', (status, expected) => {
    expect(isRetryable(status)).toBe(expected);
  });
});

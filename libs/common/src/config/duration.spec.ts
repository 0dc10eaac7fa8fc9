import { z } from 'zod';
import { env } from './env-types';
import { parseConfig } from './load-config';
import { formatDuration, parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads a number and a unit, spaces and case aside', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration(' 10m ')).toBe(600_000);
    expect(parseDuration('2H')).toBe(7_200_000);
    expect(parseDuration('5d')).toBe(432_000_000);
    expect(parseDuration('3 s')).toBe(3_000);
  });

  it.each([
    ['5', /must be a number and a unit \(ms, s, m, h or d\)/],
    ['5x', /must be a number and a unit/],
    ['-5s', /must be a number and a unit/],
    ['', /must be a number and a unit/],
    ['0s', /must be longer than 0/],
    ['0.0001s', /must be longer than 0/],
  ])('refuses %j stating the rule', (text, message) => {
    expect(() => parseDuration(text)).toThrow(message);
  });

  it('refuses past a limit, wording it', () => {
    expect(parseDuration('24h', { max: { ms: 86_400_000, text: '24h' } })).toBe(86_400_000);
    expect(() => parseDuration('25h', { max: { ms: 86_400_000, text: '24h' } })).toThrow('must be at most 24h');
  });
});

describe('formatDuration', () => {
  it('words a duration with its two largest units', () => {
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(3_000)).toBe('3s');
    expect(formatDuration(90_000)).toBe('1m 30s');
    expect(formatDuration(432_000_000)).toBe('5d');
    expect(formatDuration(432_000_000 + 3 * 3_600_000 + 61_000)).toBe('5d 3h');
    expect(formatDuration(86_400_000 + 5 * 60_000)).toBe('1d 5m');
  });
});

describe('env.duration', () => {
  const shape = { WAIT: env.duration('5d') };

  it('defaults, and reads the value in milliseconds', () => {
    expect(parseConfig(shape, {})).toEqual({ WAIT: 432_000_000 });
    expect(parseConfig(shape, { WAIT: '3s' })).toEqual({ WAIT: 3_000 });
  });

  it('names the variable and the rule', () => {
    expect(() => parseConfig(shape, { WAIT: 'soon' })).toThrow('WAIT: must be a number and a unit (ms, s, m, h or d), such as 5s or 2h (got "soon")');
    expect(z.object(shape).safeParse({ WAIT: '0ms' }).success).toBe(false);
  });
});

import { createLogger } from '@app/common';
import type Redis from 'ioredis';
import { accountKey, SignInThrottle, throttleVerdict } from './sign-in-throttle';

const LIMITS = { perAccount: 5, perAddress: 50, windowSeconds: 900 };

describe('throttleVerdict', () => {
  it('allows while both counts are under their limits', () => {
    expect(throttleVerdict(null, null, LIMITS)).toEqual({ allowed: true });
    expect(throttleVerdict({ failures: 4, msBeforeReset: 1000 }, { failures: 49, msBeforeReset: 1000 }, LIMITS)).toEqual({ allowed: true });
  });

  it('refuses once a count reaches its limit, until its window ends (whole seconds, rounded up)', () => {
    expect(throttleVerdict({ failures: 5, msBeforeReset: 120_001 }, null, LIMITS)).toEqual({ allowed: false, by: 'account', retryAfterSeconds: 121 });
    expect(throttleVerdict(null, { failures: 50, msBeforeReset: 10 }, LIMITS)).toEqual({ allowed: false, by: 'address', retryAfterSeconds: 1 });
  });

  it('names the later of two refusing windows', () => {
    expect(throttleVerdict({ failures: 9, msBeforeReset: 5_000 }, { failures: 50, msBeforeReset: 60_000 }, LIMITS))
      .toEqual({ allowed: false, by: 'address', retryAfterSeconds: 60 });
  });
});

describe('accountKey', () => {
  it('is the same for any case or surrounding space of the address, and does not contain it', () => {
    expect(accountKey(' Ada@Example.com')).toBe(accountKey('ada@example.com'));
    expect(accountKey('ada@example.com')).not.toContain('ada');
    expect(accountKey('ada@example.com')).not.toBe(accountKey('bob@example.com'));
  });
});

describe('SignInThrottle while Redis is unreachable', () => {
  it('counts in memory (per replica) rather than refusing or letting every attempt through', async () => {
    const down = { status: 'end' } as unknown as Redis; // rejectIfRedisNotReady: every command fails at once
    const throttle = new SignInThrottle(down, { perAccount: 2, perAddress: 10, windowSeconds: 60 }, 't:si', createLogger('test', 'silent'));
    expect(await throttle.verdict('a@example.com', '10.0.0.1')).toEqual({ allowed: true });
    await throttle.failed('a@example.com', '10.0.0.1');
    await throttle.failed('a@example.com', '10.0.0.1');
    expect(await throttle.verdict('A@example.com', '10.0.0.2')).toMatchObject({ allowed: false, by: 'account' });
    await throttle.succeeded('a@example.com');
    expect(await throttle.verdict('a@example.com', '10.0.0.1')).toEqual({ allowed: true });
  });
});

import { randomBytes } from 'node:crypto';
import { parseConfig } from '@app/common';
import { roomsConfigShape } from './config';

/** Every service that keeps or signs with secrets needs its keys (SECRETS_KEYS). */
const KEYS = { SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}` };

describe('rooms configuration: disabling failing webhooks', () => {
  it('disables after 5 days and 20 failures by default', () => {
    expect(parseConfig(roomsConfigShape, KEYS)).toMatchObject({ WEBHOOK_DISABLE_AFTER: 432_000_000, WEBHOOK_DISABLE_MIN_FAILURES: 20 });
  });

  it('takes a duration like the retry schedule\'s entries, as small as a few seconds and a few failures', () => {
    expect(parseConfig(roomsConfigShape, { ...KEYS, WEBHOOK_DISABLE_AFTER: '3s', WEBHOOK_DISABLE_MIN_FAILURES: '2' }))
      .toMatchObject({ WEBHOOK_DISABLE_AFTER: 3_000, WEBHOOK_DISABLE_MIN_FAILURES: 2 });
    expect(parseConfig(roomsConfigShape, { ...KEYS, WEBHOOK_DISABLE_AFTER: '10m' }).WEBHOOK_DISABLE_AFTER).toBe(600_000);
  });

  it('names the variable whose value is wrong', () => {
    expect(() => parseConfig(roomsConfigShape, { ...KEYS, WEBHOOK_DISABLE_AFTER: '5 days' }))
      .toThrow('WEBHOOK_DISABLE_AFTER: must be a number and a unit (ms, s, m, h or d), such as 5s or 2h (got "5 days")');
    expect(() => parseConfig(roomsConfigShape, { ...KEYS, WEBHOOK_DISABLE_MIN_FAILURES: '0' })).toThrow(/WEBHOOK_DISABLE_MIN_FAILURES: must be greater than 0/);
  });
});

describe('rooms configuration: the live connections\' event log', () => {
  it('keeps published room events 25 hours by default (24 promised, an hour of margin), seconds in tests', () => {
    expect(parseConfig(roomsConfigShape, KEYS).LIVE_EVENTS_RETENTION).toBe(25 * 3_600_000);
    expect(parseConfig(roomsConfigShape, { ...KEYS, LIVE_EVENTS_RETENTION: '2s' }).LIVE_EVENTS_RETENTION).toBe(2_000);
  });

  it('names the variable whose value is wrong', () => {
    expect(() => parseConfig(roomsConfigShape, { ...KEYS, LIVE_EVENTS_RETENTION: '24' })).toThrow(/LIVE_EVENTS_RETENTION: must be a number and a unit/);
  });
});

describe('rooms configuration: secrets at rest', () => {
  it('does not start without SECRETS_KEYS, and says how to make one', () => {
    expect(() => parseConfig(roomsConfigShape, {})).toThrow(/SECRETS_KEYS: must be set \(or SECRETS_KEYS_FILE, a file holding it\): keyId:base64 of 32 random bytes.*\(not set\)/);
    expect(parseConfig(roomsConfigShape, KEYS).SECRETS_KEYS.currentKeyId).toBe('k1');
  });
});

describe('rooms configuration: the audit log', () => {
  it('keeps 90 days by default, pruned hourly', () => {
    expect(parseConfig(roomsConfigShape, KEYS)).toMatchObject({ AUDIT_RETENTION_DAYS: 90, AUDIT_PRUNE_EVERY: 3_600_000 });
    expect(parseConfig(roomsConfigShape, { ...KEYS, AUDIT_RETENTION_DAYS: '365' }).AUDIT_RETENTION_DAYS).toBe(365);
  });

  it('names the variable whose value is wrong', () => {
    expect(() => parseConfig(roomsConfigShape, { AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS: must be greater than 0/);
    expect(() => parseConfig(roomsConfigShape, { AUDIT_RETENTION_DAYS: 'ninety' })).toThrow(/AUDIT_RETENTION_DAYS: must be a whole number/);
  });
});

import { randomBytes } from 'node:crypto';
import { parseConfig } from '@app/common';
import { dispatcherConfigShape } from './config';
import { DEFAULT_RETRY_SCHEDULE_MS } from './delivery/retry-policy';

/** Every service that keeps or signs with secrets needs its keys (SECRETS_KEYS). */
const KEYS = { SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}` };

describe('dispatcher configuration', () => {
  it('has defaults for every delivery setting', () => {
    expect(parseConfig(dispatcherConfigShape, { ...KEYS, WEBHOOK_ALLOWED_NETWORKS: ' ' })).toMatchObject({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/chat',
      WEBHOOK_ALLOWED_NETWORKS: [],
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_RETRY_SCHEDULE: DEFAULT_RETRY_SCHEDULE_MS,
      WEBHOOK_CONCURRENCY: 64,
      WEBHOOK_SLOW_RECEIVER_LIMIT: 100,
      WEBHOOK_RECORD_RETENTION_DAYS: 30,
      WEBHOOK_FAILED_RETENTION_DAYS: 90,
      WEBHOOK_MAX_RESPONSE_BYTES: 65_536,
    });
  });

  it('reads the allow-list and the schedule', () => {
    expect(parseConfig(dispatcherConfigShape, { ...KEYS, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1/128', WEBHOOK_RETRY_SCHEDULE: '200ms,1s,2m' }))
      .toMatchObject({ WEBHOOK_ALLOWED_NETWORKS: ['127.0.0.0/8', '::1/128'], WEBHOOK_RETRY_SCHEDULE: [200, 1_000, 120_000] });
  });

  it('names each wrong variable', () => {
    expect(() => parseConfig(dispatcherConfigShape, { ...KEYS, WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE: entry 2 \("soon"\)/);
    expect(() => parseConfig(dispatcherConfigShape, { ...KEYS, WEBHOOK_ALLOWED_NETWORKS: 'localhost' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS: /);
    expect(() => parseConfig(dispatcherConfigShape, { ...KEYS, WEBHOOK_CONCURRENCY: '0' })).toThrow(/WEBHOOK_CONCURRENCY: must be greater than 0/);
    expect(() => parseConfig(dispatcherConfigShape, { ...KEYS, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a URL/);
    expect(() => parseConfig(dispatcherConfigShape, { ...KEYS, WEBHOOK_FAILED_RETENTION_DAYS: 'ninety' })).toThrow(/WEBHOOK_FAILED_RETENTION_DAYS: /);
    expect(() => parseConfig(dispatcherConfigShape, { ...KEYS, REDIS_URL: 'http://:pw@127.0.0.1:6379' }))
      .toThrow('REDIS_URL: must be a URL with scheme redis or rediss (got "http://:[REDACTED]@127.0.0.1:6379")');
  });

  it('shares the bridges\' posting limits in the gateway\'s Redis unless told another', () => {
    expect(parseConfig(dispatcherConfigShape, { ...KEYS }).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(parseConfig(dispatcherConfigShape, { ...KEYS, REDIS_URL: 'redis://127.0.0.1:6379/2' }).REDIS_URL).toBe('redis://127.0.0.1:6379/2');
  });
});

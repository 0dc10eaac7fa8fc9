import { parseConfig } from '@app/common';
import { gatewayConfigProblems, gatewayConfigShape } from './config';

describe('gateway configuration: live connections', () => {
  it('heartbeats every 15 s and cuts off a client 1 MiB behind, by default', () => {
    expect(parseConfig(gatewayConfigShape, {})).toMatchObject({ LIVE_HEARTBEAT_SECONDS: 15, LIVE_MAX_PENDING_BYTES: 1_048_576 });
    expect(parseConfig(gatewayConfigShape, { LIVE_HEARTBEAT_SECONDS: '1', LIVE_MAX_PENDING_BYTES: '4096' }))
      .toMatchObject({ LIVE_HEARTBEAT_SECONDS: 1, LIVE_MAX_PENDING_BYTES: 4096 });
  });

  it('names the variable whose value is wrong', () => {
    expect(() => parseConfig(gatewayConfigShape, { LIVE_HEARTBEAT_SECONDS: '0' })).toThrow(/LIVE_HEARTBEAT_SECONDS: must be greater than 0/);
    expect(() => parseConfig(gatewayConfigShape, { LIVE_HEARTBEAT_SECONDS: '7200' })).toThrow(/LIVE_HEARTBEAT_SECONDS: must be at most 3600/);
    expect(() => parseConfig(gatewayConfigShape, { LIVE_MAX_PENDING_BYTES: 'lots' })).toThrow(/LIVE_MAX_PENDING_BYTES: must be a whole number/);
  });
});

describe('gateway configuration: console sign-in', () => {
  it('keeps sessions 14 days and allows 5 failures per account and address, 50 per address per 15 minutes, 50 per account per hour by default; trusts no proxy', () => {
    const config = parseConfig(gatewayConfigShape, {});
    expect(config).toMatchObject({
      SESSION_TTL: 14 * 86_400_000, SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: 5, SIGN_IN_MAX_FAILURES_PER_ADDRESS: 50, SIGN_IN_WINDOW: 900_000,
      SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: 50, SIGN_IN_ACCOUNT_WINDOW: 3_600_000, TRUST_PROXY: [],
      PUBLIC_RATE_LIMIT_MAX: 600, PUBLIC_RATE_LIMIT_WINDOW_SECONDS: 300, FILE_RATE_LIMIT_MAX: 3000, FILE_RATE_LIMIT_WINDOW_SECONDS: 300,
    });
    expect(gatewayConfigProblems(config)).toEqual([]);
  });

  it('takes proxies as addresses and CIDR ranges', () => {
    expect(parseConfig(gatewayConfigShape, { TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).TRUST_PROXY).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
  });

  it('names the variable whose value is wrong', () => {
    expect(() => parseConfig(gatewayConfigShape, { SESSION_TTL: '2 weeks' })).toThrow(/SESSION_TTL: must be a number and a unit/);
    expect(() => parseConfig(gatewayConfigShape, { SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '0' })).toThrow(/SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: must be greater than 0/);
    expect(() => parseConfig(gatewayConfigShape, { SIGN_IN_ACCOUNT_WINDOW: 'an hour' })).toThrow(/SIGN_IN_ACCOUNT_WINDOW: must be a number and a unit/);
    expect(() => parseConfig(gatewayConfigShape, { PUBLIC_RATE_LIMIT_MAX: '-1' })).toThrow(/PUBLIC_RATE_LIMIT_MAX: must be greater than 0/);
    expect(() => parseConfig(gatewayConfigShape, { FILE_RATE_LIMIT_MAX: 'lots' })).toThrow(/FILE_RATE_LIMIT_MAX: /);
    // The old setting meant five failures from anywhere: it must not be taken silently for the new, wider budget.
    expect(() => parseConfig(gatewayConfigShape, { SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '5' })).toThrow(/SIGN_IN_MAX_FAILURES_PER_ACCOUNT: is no longer read: set SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS/);
    expect(gatewayConfigProblems(parseConfig(gatewayConfigShape, { SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '10', SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: '9' })))
      .toEqual([expect.stringMatching(/^SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: must be at least SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS/)]);
    expect(gatewayConfigProblems(parseConfig(gatewayConfigShape, { SIGN_IN_WINDOW: '500ms' }))).toEqual(['SIGN_IN_WINDOW: must be at least 1s']);
    expect(() => parseConfig(gatewayConfigShape, { TRUST_PROXY: '10.0.0.1,proxy.local' })).toThrow(/TRUST_PROXY: must be IP addresses or CIDR ranges.*"proxy.local"/);
    expect(gatewayConfigProblems(parseConfig(gatewayConfigShape, { SESSION_TTL: '30s' }))).toEqual([expect.stringMatching(/^SESSION_TTL: must be at least 1m/)]);
  });
});

describe('gateway configuration: files', () => {
  it('signs file links for 7 days and removes deleted rooms\' files every minute by default, with a generated key', () => {
    const config = parseConfig(gatewayConfigShape, {});
    expect(config).toMatchObject({ FILE_LINK_TTL: 7 * 86_400_000, FILE_CLEANUP_INTERVAL: 60_000 });
    expect(config.FILE_LINK_SECRET).toBeUndefined();
  });

  it('names the variable whose value is wrong, never echoing the key', () => {
    expect(() => parseConfig(gatewayConfigShape, { FILE_LINK_SECRET: 'short-s3cret' })).toThrow(/FILE_LINK_SECRET: must be at least 32 characters/);
    expect(() => parseConfig(gatewayConfigShape, { FILE_LINK_SECRET: 'short-s3cret' })).not.toThrow(/short-s3cret/);
    expect(() => parseConfig(gatewayConfigShape, { FILE_LINK_TTL: 'a week' })).toThrow(/FILE_LINK_TTL: must be a number and a unit/);
    expect(gatewayConfigProblems(parseConfig(gatewayConfigShape, { FILE_LINK_TTL: '30s' }))).toEqual([expect.stringMatching(/^FILE_LINK_TTL: must be at least 1m/)]);
  });
});

describe('gateway configuration: failed token authentications', () => {
  it('allows 100 failures per client address per 5 minutes by default', () => {
    expect(parseConfig(gatewayConfigShape, {})).toMatchObject({ AUTH_FAILURE_RATE_LIMIT_MAX: 100, AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: 300 });
    expect(parseConfig(gatewayConfigShape, { AUTH_FAILURE_RATE_LIMIT_MAX: '20', AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: '3600' }))
      .toMatchObject({ AUTH_FAILURE_RATE_LIMIT_MAX: 20, AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: 3600 });
  });

  it('names the variable whose value is wrong', () => {
    expect(() => parseConfig(gatewayConfigShape, { AUTH_FAILURE_RATE_LIMIT_MAX: '0' })).toThrow(/AUTH_FAILURE_RATE_LIMIT_MAX: must be greater than 0/);
    expect(() => parseConfig(gatewayConfigShape, { AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: '5m' })).toThrow(/AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: must be a whole number/);
  });
});

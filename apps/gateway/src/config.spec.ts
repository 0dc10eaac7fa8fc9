import { parseConfig } from '@app/common';
import { gatewayConfigShape } from './config';

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

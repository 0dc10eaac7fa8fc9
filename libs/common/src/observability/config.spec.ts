import { parseConfig } from '../config/load-config';
import { METRICS_PORTS, observabilityShape } from './config';

describe('observabilityShape', () => {
  const shape = observabilityShape(METRICS_PORTS.rooms);

  it('defaults to the service\'s own port on 127.0.0.1', () => {
    expect(parseConfig(shape, {})).toEqual({ METRICS_PORT: 9465, METRICS_HOST: '127.0.0.1' });
    expect(new Set(Object.values(METRICS_PORTS)).size).toBe(3);
  });

  it('takes 0 (any free port) and a host', () => {
    expect(parseConfig(shape, { METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' })).toEqual({ METRICS_PORT: 0, METRICS_HOST: '0.0.0.0' });
  });

  it('names the variable when wrong', () => {
    expect(() => parseConfig(shape, { METRICS_PORT: 'nine' })).toThrow('METRICS_PORT: must be a port number (got "nine")');
    expect(() => parseConfig(shape, { METRICS_PORT: '70000' })).toThrow('METRICS_PORT: must be 0..65535');
    expect(() => parseConfig(shape, { METRICS_HOST: 'a b' })).toThrow('METRICS_HOST: must be a host name or an IP address');
  });
});

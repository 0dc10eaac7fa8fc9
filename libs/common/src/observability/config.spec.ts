import { parseConfig } from '../config/load-config';
import { METRICS_PORTS, observabilityShape } from './config';

describe('observabilityShape', () => {
  const shape = observabilityShape(METRICS_PORTS.rooms);

  it('defaults to the service\'s own port on 127.0.0.1', () => {
    expect(parseConfig(shape, {})).toEqual({ METRICS_PORT: 9465, METRICS_HOST: '127.0.0.1', OTEL_TRACES_SAMPLER_ARG: 1 });
    expect(new Set(Object.values(METRICS_PORTS)).size).toBe(3);
  });

  it('takes 0 (any free port) and a host', () => {
    expect(parseConfig(shape, { METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' })).toMatchObject({ METRICS_PORT: 0, METRICS_HOST: '0.0.0.0' });
  });

  it('takes OpenTelemetry\'s variables: an OTLP endpoint, the share of traces sampled, a service name', () => {
    expect(parseConfig(shape, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', OTEL_TRACES_SAMPLER_ARG: '0.25', OTEL_SERVICE_NAME: 'chat-rooms' }))
      .toMatchObject({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318', OTEL_TRACES_SAMPLER_ARG: 0.25, OTEL_SERVICE_NAME: 'chat-rooms' });
    expect(() => parseConfig(shape, { OTEL_EXPORTER_OTLP_ENDPOINT: 'jaeger:4318' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL');
    expect(() => parseConfig(shape, { OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1');
    expect(() => parseConfig(shape, { OTEL_TRACES_SAMPLER_ARG: 'half' })).toThrow('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1');
  });

  it('names the variable when wrong', () => {
    expect(() => parseConfig(shape, { METRICS_PORT: 'nine' })).toThrow('METRICS_PORT: must be a port number (got "nine")');
    expect(() => parseConfig(shape, { METRICS_PORT: '70000' })).toThrow('METRICS_PORT: must be 0..65535');
    expect(() => parseConfig(shape, { METRICS_HOST: 'a b' })).toThrow('METRICS_HOST: must be a host name or an IP address');
  });
});

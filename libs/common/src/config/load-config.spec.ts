import { commonShape, env } from './env-types';
import { ConfigError, parseConfig } from './load-config';

describe('parseConfig', () => {
  const shape = { ...commonShape, PORT: env.port(8080) };

  it('applies defaults when variables are absent or blank', () => {
    const config = parseConfig(shape, { PORT: '  ' });
    expect(config).toEqual({
      AMQP_URL: ['amqp://guest:guest@127.0.0.1:5672'],
      AMQP_QUEUE_TYPE: 'quorum',
      BROKER_NAMESPACE: 'chat',
      LOG_LEVEL: 'info',
      PORT: 8080,
    });
  });

  it('coerces numbers', () => {
    expect(parseConfig(shape, { PORT: '9090' }).PORT).toBe(9090);
  });

  it('names every wrong variable, its rule and its value', () => {
    let error: ConfigError | undefined;
    try {
      parseConfig(shape, { PORT: 'eighty', AMQP_URL: 'http://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toEqual(expect.arrayContaining([
      'PORT: must be a port number (got "eighty")',
      'AMQP_URL: must be a URL with scheme amqp or amqps (got "http://x")',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]));
  });

  it('rejects out-of-range ports and unsafe namespaces', () => {
    expect(() => parseConfig(shape, { PORT: '70000' })).toThrow('PORT: must be 0..65535');
    expect(() => parseConfig(shape, { BROKER_NAMESPACE: 'a b' })).toThrow('BROKER_NAMESPACE');
  });

  it('normalises a public base URL once: trailing slashes dropped, only http(s)', () => {
    const base = { PUBLIC_BASE_URL: env.publicBaseUrl('http://127.0.0.1:8080') };
    expect(parseConfig(base, {}).PUBLIC_BASE_URL).toBe('http://127.0.0.1:8080');
    expect(parseConfig(base, { PUBLIC_BASE_URL: 'https://chat.example.com/base//' }).PUBLIC_BASE_URL).toBe('https://chat.example.com/base');
    expect(() => parseConfig(base, { PUBLIC_BASE_URL: 'ftp://chat.example.com' })).toThrow('PUBLIC_BASE_URL: must be a URL with scheme http or https');
  });

  it('reads AMQP_URL as the nodes of a cluster, separated by commas, each a URL', () => {
    expect(parseConfig(shape, { AMQP_URL: 'amqp://u:p@rabbit-0:5672, amqp://u:p@rabbit-1:5672,amqps://u:p@rabbit-2' }).AMQP_URL)
      .toEqual(['amqp://u:p@rabbit-0:5672', 'amqp://u:p@rabbit-1:5672', 'amqps://u:p@rabbit-2']);
    expect(parseConfig(shape, { AMQP_URL: 'amqp://rabbit' }).AMQP_URL).toEqual(['amqp://rabbit']);
    expect(() => parseConfig(shape, { AMQP_URL: 'amqp://a,http://b' }))
      .toThrow('AMQP_URL: entry 2 must be a URL with scheme amqp or amqps (got "amqp://a,http://b")');
    expect(() => parseConfig(shape, { AMQP_URL: 'amqp://a,,amqp://b' }))
      .toThrow('AMQP_URL: entry 2 is empty: must be URLs separated by commas');
    expect(() => parseConfig(shape, { AMQP_URL: 'amqp://a,' })).toThrow('AMQP_URL: entry 2 is empty');
  });

  it('takes AMQP_QUEUE_TYPE quorum (the default) or classic, nothing else', () => {
    expect(parseConfig(shape, {}).AMQP_QUEUE_TYPE).toBe('quorum');
    expect(parseConfig(shape, { AMQP_QUEUE_TYPE: 'classic' }).AMQP_QUEUE_TYPE).toBe('classic');
    expect(() => parseConfig(shape, { AMQP_QUEUE_TYPE: 'stream' })).toThrow('AMQP_QUEUE_TYPE: must be quorum or classic (got "stream")');
  });
});

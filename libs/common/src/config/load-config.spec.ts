import { z } from 'zod';
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

  describe('never shows a password', () => {
    const urls = {
      DATABASE_URL: env.url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/chat'),
      REDIS_URL: env.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
      PUBLIC_BASE_URL: env.publicBaseUrl('http://127.0.0.1:8080'),
      OTHER: z.string().default('ok').refine((v) => v.startsWith('ok'), 'must start with ok'),
    };
    const problemsOf = (e: Record<string, string>): string[] => {
      try {
        parseConfig({ ...commonShape, ...urls }, e);
      } catch (err) {
        return (err as ConfigError).problems;
      }
      throw new Error('parseConfig should have failed');
    };

    it.each([
      ['DATABASE_URL', 'mysql://u:S3cretPw@h/x', 'DATABASE_URL: must be a URL with scheme postgres or postgresql (got "mysql://u:[REDACTED]@h/x")'],
      ['AMQP_URL', 'http://guest:S3cretPw@127.0.0.1:5672', 'AMQP_URL: must be a URL with scheme amqp or amqps (got "http://guest:[REDACTED]@127.0.0.1:5672")'],
      ['REDIS_URL', 'http://:S3cretPw@127.0.0.1:5999', 'REDIS_URL: must be a URL with scheme redis or rediss (got "http://:[REDACTED]@127.0.0.1:5999")'],
      ['PUBLIC_BASE_URL', 'ftp://admin:S3cretPw@chat.example.com', 'PUBLIC_BASE_URL: must be a URL with scheme http or https (got "ftp://admin:[REDACTED]@chat.example.com")'],
      // Not parsable as URLs: a password with an unencoded / or @, a bad port, no scheme.
      ['DATABASE_URL', 'postgres://u:S3cr/etPw@h/x', 'DATABASE_URL: must be a URL with scheme postgres or postgresql (got "postgres://u:[REDACTED]@h/x")'],
      ['DATABASE_URL', 'mysql://u:S3c@retPw@h:99999/x', 'DATABASE_URL: must be a URL with scheme postgres or postgresql (got "mysql://u:[REDACTED]@h:99999/x")'],
      ['DATABASE_URL', 'u:S3cretPw@h/x', 'DATABASE_URL: must be a URL with scheme postgres or postgresql (got "u:[REDACTED]@h/x")'],
      ['REDIS_URL', 'redis//:S3cretPw@h:6379', 'REDIS_URL: must be a URL with scheme redis or rediss (got "redis//:[REDACTED]@h:6379")'],
      // A password in the query (pg and ioredis read one there).
      ['DATABASE_URL', 'mysql://h/x?password=S3cretPw&ssl=1', 'DATABASE_URL: must be a URL with scheme postgres or postgresql (got "mysql://h/x?password=[REDACTED]&ssl=1")'],
    ])('%s=%s', (variable, value, expected) => {
      const problems = problemsOf({ [variable]: value });
      expect(problems).toEqual([expected]);
      expect(problems.join('\n')).not.toContain('S3c');
    });

    it('hides the password of every node of a cluster, and of the entry it names', () => {
      const problems = problemsOf({ AMQP_URL: 'amqp://u:S3cretPw@a,http://v:S3cretPw2@b, amqp://w:S3,cretPw3@c' });
      // A comma in a password splits the list (entries 3 and 4): the value still shows none of it.
      const shown = '(got "amqp://u:[REDACTED]@a,http://v:[REDACTED]@b, amqp://w:[REDACTED]@c")';
      expect(problems).toEqual([2, 3, 4].map((n) => `AMQP_URL: entry ${n} must be a URL with scheme amqp or amqps ${shown}`));
    });

    it('keeps a user name alone, which is how such URLs name their role', () => {
      expect(problemsOf({ DATABASE_URL: 'mysql://postgres@h/x' }))
        .toEqual(['DATABASE_URL: must be a URL with scheme postgres or postgresql (got "mysql://postgres@h/x")']);
    });

    it('never echoes a variable named as a secret, only its rule, and hides the value in the rule too', () => {
      const secrets = {
        SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
        ADMIN_TOKEN: z.string().refine(() => false, 'must be a token'),
        SMTP_PASSWORD: z.string().transform((v, ctx) => {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${v}" is not a password` });
          return z.NEVER;
        }),
      };
      let error: ConfigError | undefined;
      try {
        parseConfig(secrets, { SESSION_SECRET: 'S3cretPw-short', ADMIN_TOKEN: 'S3cretTok', SMTP_PASSWORD: 'S3cretPw' });
      } catch (e) {
        error = e as ConfigError;
      }
      expect(error!.problems).toEqual([
        'SESSION_SECRET: must be at least 32 characters (value not shown)',
        'ADMIN_TOKEN: must be a token (value not shown)',
        'SMTP_PASSWORD: "[REDACTED]" is not a password (value not shown)',
      ]);
      expect(error!.message).not.toContain('S3cret');
      expect(() => parseConfig(secrets, {})).toThrow('SESSION_SECRET: Required (not set)');
    });

    it('still shows other values as written', () => {
      expect(problemsOf({ OTHER: 'no: a@b' })).toEqual(['OTHER: must start with ok (got "no:[REDACTED]@b")']);
      expect(problemsOf({ REDIS_URL: 'http://127.0.0.1:5999/0?db=1' }))
        .toEqual(['REDIS_URL: must be a URL with scheme redis or rediss (got "http://127.0.0.1:5999/0?db=1")']);
    });
  });
});

import { accessSync, constants } from 'node:fs';
import { z } from 'zod';
import { parseDuration } from './duration';
import { parseSecretKeys, SecretBox } from '../security/secret-box';

function hasScheme(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
  } catch {
    return false;
  }
}

const SECRET_KEYS_RULE = 'must be set (or SECRETS_KEYS_FILE, a file holding it): keyId:base64 of 32 random bytes, comma-separated, '
  + 'the first encrypts (e.g. `k1:$(openssl rand -base64 32)`; npm start makes one in data/secrets-keys)';

/** Reusable variable types with messages that state the rule. */
export const env = {
  port: (fallback: number) =>
    z.coerce.number({ invalid_type_error: 'must be a port number' })
      .int('must be a whole number').min(0, 'must be 0..65535').max(65535, 'must be 0..65535')
      .default(fallback),
  positiveInt: (fallback: number) =>
    z.coerce.number({ invalid_type_error: 'must be a whole number' })
      .int('must be a whole number').positive('must be greater than 0').default(fallback),
  /** A duration such as `5d`, `10m` or `3s` (see parseDuration), in milliseconds. */
  duration: (fallback: string) =>
    z.string().default(fallback).transform((value, ctx) => {
      try {
        return parseDuration(value);
      } catch (err) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (err as Error).message });
        return z.NEVER;
      }
    }),
  url: (protocols: string[], fallback: string) =>
    z.string().default(fallback).refine((value) => hasScheme(value, protocols), `must be a URL with scheme ${protocols.join(' or ')}`),
  /** A URL as `url` checks it, or undefined when unset (a dependency the service can do without). */
  optionalUrl: (protocols: string[]) =>
    z.string().optional().refine((value) => value === undefined || hasScheme(value, protocols), `must be a URL with scheme ${protocols.join(' or ')}`),
  /**
   * The service's public address as others reach it: an http(s) URL, normalised here once
   * (trailing slashes dropped), so every link is built as `${base}/path`.
   */
  publicBaseUrl: (fallback: string) =>
    env.url(['http', 'https'], fallback).transform((value) => value.replace(/\/+$/, '')),
  /**
   * A comma-separated list of URLs (the nodes of a cluster), each checked as `url` is: the
   * problem names the entry. Spaces around the commas are dropped.
   */
  urlList: (protocols: string[], fallback: string) =>
    z.string().default(fallback).transform((value, ctx) => {
      const urls = value.split(',').map((u) => u.trim());
      urls.forEach((url, i) => {
        const which = urls.length > 1 ? `entry ${i + 1} ` : '';
        if (url === '') {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${which}is empty: must be URLs separated by commas` });
        } else if (!hasScheme(url, protocols)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${which}must be a URL with scheme ${protocols.join(' or ')}` });
        }
      });
      return urls;
    }),
  name: (fallback: string) =>
    z.string().default(fallback).refine((v) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(v),
      'must be letters, digits, ".", "_" or "-" (at most 101 characters)'),
  /** A file the process must be able to read, when set. */
  optionalFile: () =>
    z.string().optional().refine((v) => {
      if (v === undefined) return true;
      try {
        accessSync(v, constants.R_OK);
        return true;
      } catch {
        return false;
      }
    }, 'must name a readable file'),
  /**
   * The keys that encrypt secrets at rest (SECRETS_KEYS): `keyId:base64-of-32-bytes`,
   * comma-separated, the first one encrypts, the others only decrypt. Required: a service
   * that keeps or uses such secrets does not start without them.
   */
  secretKeys: () =>
    z.string({ required_error: SECRET_KEYS_RULE }).transform((value, ctx) => {
      try {
        return new SecretBox(parseSecretKeys(value));
      } catch (err) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (err as Error).message });
        return z.NEVER;
      }
    }),
  logLevel: () =>
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      errorMap: () => ({ message: 'must be one of fatal, error, warn, info, debug, trace, silent' }),
    }).default('info'),
};

/** Settings every service reads. */
export const commonShape = {
  /** The broker, or the nodes of a cluster separated by commas (any that answers is used). */
  AMQP_URL: env.urlList(['amqp', 'amqps'], 'amqp://guest:guest@127.0.0.1:5672'),
  /**
   * The type of the durable queues (see QueueType): quorum (RabbitMQ 3.10+), or classic for a
   * broker that cannot. An existing queue of the other type stops the start.
   */
  AMQP_QUEUE_TYPE: z.enum(['quorum', 'classic'], { errorMap: () => ({ message: 'must be quorum or classic' }) }).default('quorum'),
  BROKER_NAMESPACE: env.name('chat'),
  LOG_LEVEL: env.logLevel(),
};

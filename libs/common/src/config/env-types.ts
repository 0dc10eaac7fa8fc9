import { accessSync, constants } from 'node:fs';
import { z } from 'zod';
import { parseDuration } from './duration';

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
    z.string().default(fallback).refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    }, `must be a URL with scheme ${protocols.join(' or ')}`),
  /**
   * The service's public address as others reach it: an http(s) URL, normalised here once
   * (trailing slashes dropped), so every link is built as `${base}/path`.
   */
  publicBaseUrl: (fallback: string) =>
    env.url(['http', 'https'], fallback).transform((value) => value.replace(/\/+$/, '')),
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
  logLevel: () =>
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      errorMap: () => ({ message: 'must be one of fatal, error, warn, info, debug, trace, silent' }),
    }).default('info'),
};

/** Settings every service reads. */
export const commonShape = {
  AMQP_URL: env.url(['amqp', 'amqps'], 'amqp://guest:guest@127.0.0.1:5672'),
  BROKER_NAMESPACE: env.name('chat'),
  LOG_LEVEL: env.logLevel(),
};

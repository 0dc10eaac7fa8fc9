import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { REDACT_PATHS } from './redact';

export type AppLogger = Logger;

/**
 * One JSON object per line on stdout (or another descriptor), with secrets redacted. `mixin`:
 * fields every line gets (the gateway's: its request's trace_id and span_id).
 */
export function createLogger(service: string, level: string, fd = 1, mixin?: () => object): AppLogger {
  return pinoLogger(service, level, fd, { ...(mixin ? { mixin } : {}), redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } });
}

/**
 * The same lines as createLogger's, for a caller that builds every field itself from values
 * it has already redacted (the gateway's access log: one line per request). pino's `redact`
 * walks each line's object for the secret paths, a tenth of the gateway's CPU on a request
 * (a CPU profile of the bench's message-one-room and rooms-list): a line whose fields are a
 * fixed set of non-secrets need not pay for it.
 */
export function createUnredactedLogger(service: string, level: string, fd = 1): AppLogger {
  return pinoLogger(service, level, fd, {});
}

function pinoLogger(service: string, level: string, fd: number, options: pino.LoggerOptions): AppLogger {
  return pino({
    level,
    ...options,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  }, pino.destination({ fd, sync: true }));
}

/** Routes NestJS's own log lines into the structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: AppLogger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string) {
    this.logger.fatal({ context }, String(message));
  }
}

/** Injection token for the service's AppLogger. */
export const APP_LOGGER = Symbol('APP_LOGGER');

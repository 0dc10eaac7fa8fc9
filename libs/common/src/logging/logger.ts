import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { REDACT_PATHS } from './redact';

export type AppLogger = Logger;

/**
 * One JSON object per line on stdout (or another descriptor), with secrets redacted. `mixin`:
 * fields every line gets (the gateway's: its request's trace_id and span_id).
 */
export function createLogger(service: string, level: string, fd = 1, mixin?: () => object): AppLogger {
  return pino({
    level,
    ...(mixin ? { mixin } : {}),
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
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

import { Catch, RpcExceptionFilter } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { BaseRpcContext } from '@nestjs/microservices/ctx-host/base-rpc.context';
import { CommandError, CommandFailure, isCommandError } from '@app/contracts';
import { Histogram, Registry } from 'prom-client';
import { lastValueFrom, Observable, throwError } from 'rxjs';
import type { AppLogger } from '../logging';
import { DURATION_BUCKETS, OTHER, secondsSince } from '../observability';
import { traceFields } from '../tracing';
import type { AmqpBroker } from './amqp-broker';
import { CommandMeta, RpcReply } from './rpc';

/** The context a @MessagePattern handler can read with @Ctx(). */
export class CommandContext extends BaseRpcContext<[CommandMeta]> {
  get meta(): CommandMeta {
    return this.getArgByIndex(0);
  }
}

/**
 * A Nest microservice transport on our AMQP set-up: @MessagePattern handlers (with their
 * pipes, interceptors and filters) serve the command queue; each command is acknowledged and
 * answered once handled (see serveCommands).
 */
export class AmqpCommandServer extends Server implements CustomTransportStrategy {
  private readonly handled: Histogram<'rpc_method' | 'outcome'> | null;

  constructor(
    private readonly broker: AmqpBroker,
    private readonly queue: string,
    private readonly prefetch: number,
    private readonly appLogger: AppLogger,
    /** The service's metrics: each command's handling time and outcome is observed there. */
    metrics?: Registry,
  ) {
    super();
    this.handled = metrics ? new Histogram({
      name: 'rpc_server_call_duration_seconds',
      help: 'Commands handled, from receipt to reply, by command (its contract name) and outcome (ok, or the command error code).',
      labelNames: ['rpc_method', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers: [metrics],
    }) : null;
  }

  listen(callback: (err?: unknown) => void): void {
    this.broker.serveCommands(this.queue, this.prefetch, (payload, meta) => this.dispatch(payload, meta))
      .then(() => callback(), (err) => callback(err));
  }

  private async dispatch(payload: unknown, meta: CommandMeta): Promise<RpcReply> {
    const started = process.hrtime.bigint();
    const reply = await this.reply(payload, meta);
    // Only the patterns this server serves name a series: an unknown one (sent by anyone) is _OTHER.
    this.handled?.observe({
      rpc_method: this.messageHandlers.has(meta.pattern) ? meta.pattern : OTHER,
      outcome: 'ok' in reply ? 'ok' : reply.error.code,
    }, secondsSince(started));
    return reply;
  }

  private async reply(payload: unknown, meta: CommandMeta): Promise<RpcReply> {
    const handler = this.messageHandlers.get(meta.pattern);
    if (!handler) {
      return { error: { code: 'invalid', reason: 'rule', detail: { problem: `unknown command ${meta.pattern}` } } };
    }
    // One log line per command, written here rather than by a Nest interceptor: an interceptor
    // puts every command through Nest's interceptor chain (two AsyncResource.bind calls, about
    // 15 µs each on Node 20, and an rxjs pipeline): a fifth of the rooms service's CPU a message.
    const started = process.hrtime.bigint();
    try {
      const result = await lastValueFrom(this.transformToObservable(await handler(payload, new CommandContext([meta]))));
      this.appLogger.debug({ command: meta.pattern, ms: msSince(started) }, 'command handled');
      return { ok: result ?? {} };
    } catch (err) {
      // Failures that are not refusals are logged once, by toCommandError.
      if (err instanceof CommandFailure) this.appLogger.info({ command: meta.pattern, ms: msSince(started), error: err.error.reason }, 'command refused');
      return { error: toCommandError(err, this.appLogger, meta) };
    }
  }

  close(): void {
    // The broker connection belongs to the application; it is closed on shutdown.
  }

  on(): void {
    throw new Error('AmqpCommandServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}

/**
 * Hands every error of a handler (pipe, interceptor or use case) to the command server as
 * it was thrown. Without it Nest's default RPC filter replaces any error that is not an
 * RpcException with `{status: 'error', message: 'Internal server error'}`, so every
 * refusal (CommandFailure) would answer `internal`. Register it as the app's APP_FILTER.
 */
@Catch()
export class CommandErrorPassthrough implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

const msSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e6;

/** PostgreSQL SQLSTATE classes and node errors that mean "could not reach the database". */
const UNAVAILABLE = /^(08|53|57P)/;

/**
 * What of an error reaches the log: a database error carries its query's parameters
 * (message text, password hashes), which are never logged.
 */
function loggable(err: unknown): Record<string, unknown> {
  const e = err as { name?: string; message?: string; code?: string; driverError?: { code?: string }; stack?: string };
  return { name: e?.name, message: e?.message, code: e?.driverError?.code ?? e?.code, stack: e?.stack };
}

function toCommandError(err: unknown, logger: AppLogger, meta: CommandMeta): CommandError {
  if (err instanceof CommandFailure) return err.error;
  if (isCommandError(err)) return err;
  const e = err as { code?: string; driverError?: { code?: string } };
  const code = e?.driverError?.code ?? e?.code ?? '';
  if (UNAVAILABLE.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code) ||
      /Connection terminated|timeout exceeded when trying to connect/i.test(String((err as Error)?.message))) {
    logger.warn({ err: loggable(err), command: meta.pattern, ...traceFields(meta.traceparent) }, 'command not applied: database unavailable');
    return { code: 'unavailable', reason: 'dependency_failed' };
  }
  logger.error({ err: loggable(err), command: meta.pattern, ...traceFields(meta.traceparent) }, 'command failed');
  return { code: 'internal', reason: 'unexpected' };
}

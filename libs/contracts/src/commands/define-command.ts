import { z } from 'zod';

/**
 * A request/reply command of the rooms service. The pattern names the intent and the
 * contract version (`rooms.set-topic.v1`), never the HTTP API that uses it: v1 and v2
 * edges send the same command. The schema is checked where the command is received.
 */
export interface CommandDefinition<TRequest, TReply> {
  pattern: string;
  schema: z.ZodType<TRequest, z.ZodTypeDef, unknown>;
  /**
   * True for a query: it changes nothing, so when it goes unanswered nothing was applied
   * either way (a caller may say so, and may retry). False for a command that changes state.
   */
  readonly query: boolean;
  /**
   * True for a command that may take seconds (it calls out over HTTP, or touches rows by the
   * thousand): it is sent in a message of its own, never in a batch (see command-batch),
   * whose other answers would wait for it.
   */
  readonly alone: boolean;
  /** Type-only marker so that `ReplyOf<typeof X>` works. */
  readonly __reply?: TReply;
}

export interface CommandOptions {
  /** The command only reads (see `CommandDefinition.query`). */
  query?: boolean;
  /** The command may take seconds (see `CommandDefinition.alone`). */
  alone?: boolean;
}

export function defineCommand<TReply, TSchema extends z.ZodTypeAny = z.ZodTypeAny>(
  pattern: string,
  schema: TSchema,
  options: CommandOptions = {},
): CommandDefinition<z.output<TSchema>, TReply> {
  return { pattern, schema, query: options.query === true, alone: options.alone === true };
}

export type RequestOf<D> = D extends CommandDefinition<infer R, unknown> ? R : never;
export type ReplyOf<D> = D extends CommandDefinition<unknown, infer R> ? R : never;

/** AMQP headers a command travels with (the payload is the request alone). */
export const COMMAND_HEADERS = {
  /** UNIX milliseconds after which the command must not be applied (the caller stopped waiting). */
  deadline: 'x-deadline',
} as const;

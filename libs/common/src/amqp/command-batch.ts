/**
 * Commands that travel together: when several requests of one client are ready in the same
 * turn of its event loop, they go to the command queue as one message, and their replies come
 * back as one. The broker then enqueues, replicates (a quorum queue writes every message to
 * its log), delivers and settles one message for the lot instead of one each, and both
 * processes write and read one frame. A request alone in its turn travels on its own, as it
 * always has (`type` is its pattern, its reply is an `RpcReply`).
 *
 * Version 1 of the framing; a server that cannot read it answers nothing (the requests time
 * out), so the services that serve commands are upgraded before the ones that send them.
 */

/** `type` of a message that carries a batch of commands (its body is a CommandBatch). */
export const COMMAND_BATCH_TYPE = 'rpc.command-batch.v1';
/** `type` of the message that answers a batch (its body is a ReplyBatch). */
export const REPLY_BATCH_TYPE = 'rpc.reply-batch.v1';
/** The most commands one message carries: a fuller turn sends several messages. */
export const MAX_BATCH = 64;

/** One command in a batch: what a message of its own carries in its properties and body. */
export interface BatchedCommand {
  /** Matches its reply (each command keeps its own, as it would alone). */
  correlationId: string;
  /** The command id the server applies once. */
  messageId: string;
  pattern: string;
  /** UNIX ms after which it must not be applied (0: none). */
  deadline: number;
  /** Its span's trace context (`traceparent`, `tracestate`). */
  headers: Record<string, unknown>;
  payload: unknown;
}

export interface CommandBatch {
  commands: BatchedCommand[];
}

export interface BatchedReply {
  correlationId: string;
  /** An RpcReply: `{ok}` or `{error}`. */
  reply: unknown;
}

export interface ReplyBatch {
  replies: BatchedReply[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The commands of a batch message's body, each checked for what the server needs to serve
 * and answer it; throws on a body that is not a batch (the server then drops the message:
 * with no readable correlation id there is no one to answer).
 */
export function readCommandBatch(body: Buffer): BatchedCommand[] {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!isObject(parsed) || !Array.isArray(parsed.commands)) throw new Error('a command batch has a "commands" array');
  return parsed.commands.map((c: unknown, i: number) => {
    if (!isObject(c) || typeof c.correlationId !== 'string' || typeof c.pattern !== 'string') {
      throw new Error(`command ${i} of the batch has no correlationId or pattern`);
    }
    return {
      correlationId: c.correlationId,
      messageId: typeof c.messageId === 'string' ? c.messageId : c.correlationId,
      pattern: c.pattern,
      deadline: typeof c.deadline === 'number' && Number.isFinite(c.deadline) ? c.deadline : 0,
      headers: isObject(c.headers) ? c.headers : {},
      payload: c.payload,
    };
  });
}

/** The replies of a reply batch's body; throws on a body that is not one. */
export function readReplyBatch(body: Buffer): BatchedReply[] {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!isObject(parsed) || !Array.isArray(parsed.replies)) throw new Error('a reply batch has a "replies" array');
  return parsed.replies.filter((r: unknown): r is BatchedReply => isObject(r) && typeof r.correlationId === 'string');
}

/** The earliest deadline of a batch (0 when none has one): the message expires then. */
export function batchDeadline(commands: Array<Pick<BatchedCommand, 'deadline'>>): number {
  const set = commands.map((c) => c.deadline).filter((d) => d > 0);
  return set.length > 0 ? Math.min(...set) : 0;
}

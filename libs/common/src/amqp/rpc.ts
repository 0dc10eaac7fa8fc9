import { randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { Context, SpanKind } from '@opentelemetry/api';
import { COMMAND_HEADERS, CommandDefinition, CommandError, isCommandError } from '@app/contracts';
import type { AppLogger } from '../logging';
import { carriedTrace, contextFromHeaders, endWithError, injectHeaders, traceFields, traceparentOf, Tracing } from '../tracing';
import { CONSUMER_CANCELLED, openChannel } from './channel-healing';
import { declareQueue, QueueType } from './queue-arguments';
import { commandQueueDeclaration } from './topology';
import {
  BatchedCommand, BatchedReply, batchDeadline, COMMAND_BATCH_TYPE, CommandBatch, MAX_BATCH, readCommandBatch, readReplyBatch, REPLY_BATCH_TYPE, ReplyBatch,
} from './command-batch';

const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

const ignore = () => undefined;

/** What travels back: the reply, or the command's API-neutral error. */
export type RpcReply = { ok: unknown } | { error: CommandError };

/**
 * Why a request got no reply. The difference matters to the client: `not_sent` means the
 * command certainly did not run (answer 503, the client may retry); `no_answer` means it
 * was handed to the broker and may have run (answer 504: retrying could apply it twice).
 */
export class RpcFailure extends Error {
  constructor(readonly kind: 'not_sent' | 'no_answer', message: string) {
    super(message);
    this.name = 'RpcFailure';
  }
}

/** A command's reply error, rethrown on the client side. */
export class RpcCommandError extends Error {
  constructor(readonly error: CommandError) {
    super(`${error.code}: ${error.reason}`);
    this.name = 'RpcCommandError';
  }
}

export interface RequestOptions {
  /**
   * The command's id (default: a new one per request): the rooms service applies a command
   * id once, so a request sent again with the id of one that went unanswered is applied at
   * most once, whether the first reached it or not.
   */
  commandId?: string;
}

/** A command on its way to the broker. */
interface Outgoing extends BatchedCommand {
  /** Settled when the message that carries it is handed to the connection (queued commands). */
  written?: { resolve(): void; reject(err: unknown): void };
}

const isRpcReply = (body: unknown): body is RpcReply => typeof body === 'object' && body !== null &&
  ('ok' in body || ('error' in body && isCommandError((body as { error: unknown }).error)));

interface Pending {
  resolve(reply: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  /** Written to the connection (a request still queued in the channel is sent on the next one). */
  sent?: boolean;
}

/**
 * Request/reply over RabbitMQ's direct reply-to: no reply queue to declare. Each command
 * carries a unique id (the rooms service applies an id once) and a deadline after which it is
 * not applied. The commands requested in one turn of the event loop leave as one message and
 * are answered by one (see command-batch); a command that may take seconds (`alone`), or
 * one alone in its turn, leaves as a message of its own.
 */
export class RpcClient {
  private readonly pending = new Map<string, Pending>();
  /** Commands waiting for the end of this turn of the event loop (see enqueue). */
  private queued: Outgoing[] = [];
  private channel!: ChannelWrapper;

  constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly queue: string,
    private readonly logger: AppLogger,
    private readonly timeoutMs: number,
    private readonly tracing: Tracing,
  ) {}

  async start(): Promise<void> {
    // No publisher confirms here: a command the broker did not take gets no reply, which the
    // caller already treats as "may have run" (504); confirms would add a frame per request.
    this.channel = openChannel(this.connection, this.logger, `rpc client ${this.queue}`, {
      json: false,
      confirm: false,
      publishTimeout: Math.min(this.timeoutMs, 5_000),
      setup: async (ch: ConfirmChannel, lost) => {
        await ch.consume(DIRECT_REPLY_TO, (msg) => (msg ? this.onReply(msg) : lost(CONSUMER_CANCELLED)), { noAck: true });
      },
    });
    // Replies to a closed channel are lost: whatever was in flight may or may not have run.
    this.channel.on('close', () => this.failAll('the broker connection closed before the reply arrived'));
    // A direct reply comes back on the channel that sent the request, and the channel goes
    // with its connection: what was written on a lost connection is answered never, so its
    // caller hears it now rather than at its timeout (a node of a cluster stopping, say).
    this.connection.on('disconnect', this.onDisconnect);
    this.channel.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'RPC channel error'));
    await this.channel.waitForConnect();
  }

  /**
   * Whether anything serves the command queue yet. A command sent to a queue that does not
   * exist is dropped and only times out, so a process that starts alongside the server (the
   * dispatcher beside the rooms service, which may still be migrating) asks this first.
   * False while the broker is unreachable. Checked on a channel opened for it on this
   * client's connection: a missing queue closes the channel it is checked on.
   */
  async served(): Promise<boolean> {
    const model = this.connection.connection;
    if (!model) return false;
    let ch: Channel | undefined;
    try {
      ch = await model.createChannel();
      // A missing queue closes the channel with an error event: without a listener it would throw.
      ch.on('error', ignore);
      return (await ch.checkQueue(this.queue)).consumerCount > 0;
    } catch {
      return false;
    } finally {
      await ch?.close().catch(ignore);
    }
  }

  /**
   * `parent`: the trace the command is part of (default: the active context, the gateway's
   * request, or the one its payload's actor carries: see carryTrace); the command carries its
   * span's `traceparent` in its headers.
   */
  async request<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, parent?: Context, options: RequestOptions = {}): Promise<Rep> {
    if (!this.connection.isConnected()) throw new RpcFailure('not_sent', 'the message broker is unreachable');
    const span = this.tracing.span(command.pattern, SpanKind.CLIENT, parent ?? this.tracing.activeOr(carriedTrace(payload)), () => ({
      'messaging.system': 'rabbitmq', 'rpc.system': 'rabbitmq', 'rpc.method': command.pattern, 'messaging.destination.name': this.queue,
    }));
    try {
      const reply = await this.send(command, payload, injectHeaders(span, {}), options.commandId);
      span.end();
      return reply;
    } catch (err) {
      endWithError(span, err instanceof RpcCommandError ? err.error.code : (err as Error).name);
      throw err;
    }
  }

  private async send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, headers: Record<string, unknown>, commandId?: string): Promise<Rep> {
    const id = randomUUID();
    const deadline = Date.now() + this.timeoutMs;
    const reply = new Promise<unknown>((resolve, reject) => {
      // A little longer than the deadline: a command started just before it may still commit.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcFailure('no_answer', `no answer to ${command.pattern} within ${this.timeoutMs} ms`));
      }, this.timeoutMs + 1_000);
      this.pending.set(id, { resolve, reject, timer });
    });
    const outgoing: Outgoing = { correlationId: id, messageId: commandId ?? id, pattern: command.pattern, deadline, headers, payload };
    try {
      await (command.alone ? this.publish([outgoing]) : this.enqueue(outgoing));
      const entry = this.pending.get(id);
      if (entry) entry.sent = true;
    } catch (err) {
      const entry = this.pending.get(id);
      if (entry) {
        clearTimeout(entry.timer);
        this.pending.delete(id);
      }
      // Refused or unconfirmed by the broker: with no confirm we cannot know it is not queued,
      // but its deadline passes before anyone could apply it late, and the rooms service
      // refuses commands past their deadline.
      reply.catch(() => undefined);
      const closed = !this.connection.isConnected();
      throw new RpcFailure(closed ? 'not_sent' : 'no_answer', `could not hand ${command.pattern} to the broker: ${(err as Error).message}`);
    }
    const body = (await reply) as RpcReply;
    if ('error' in body) throw new RpcCommandError(body.error);
    return body.ok as Rep;
  }

  /**
   * Queues a command for the end of this turn of the event loop: what is queued by then
   * leaves together (see command-batch), one alone as a message of its own. Resolves when
   * its message is handed to the connection.
   */
  private enqueue(outgoing: Outgoing): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ ...outgoing, written: { resolve, reject } });
      if (this.queued.length === 1) setImmediate(this.flush);
    });
  }

  private readonly flush = () => {
    const queued = this.queued;
    this.queued = [];
    for (let i = 0; i < queued.length; i += MAX_BATCH) {
      const part = queued.slice(i, i + MAX_BATCH);
      // Called from setImmediate: a publish that throws (rather than rejects) fails its commands, never the process.
      Promise.resolve().then(() => this.publish(part))
        .then(() => part.forEach((c) => c.written!.resolve()), (err) => part.forEach((c) => c.written!.reject(err)));
    }
  };

  /** One message: the command alone as it always travelled, or a batch of them. */
  private publish(commands: Outgoing[]): Promise<boolean> {
    if (commands.length === 1) {
      const [c] = commands;
      return this.channel.sendToQueue(this.queue, Buffer.from(JSON.stringify(c.payload)), {
        correlationId: c.correlationId,
        messageId: c.messageId,
        replyTo: DIRECT_REPLY_TO,
        type: c.pattern,
        contentType: 'application/json',
        expiration: String(Math.max(1, c.deadline - Date.now())),
        headers: { ...c.headers, [COMMAND_HEADERS.deadline]: c.deadline },
        persistent: false,
      });
    }
    const batchId = randomUUID();
    const deadline = batchDeadline(commands);
    const batch: CommandBatch = { commands: commands.map(({ written: _written, ...command }) => command) };
    return this.channel.sendToQueue(this.queue, Buffer.from(JSON.stringify(batch)), {
      correlationId: batchId,
      messageId: batchId,
      replyTo: DIRECT_REPLY_TO,
      type: COMMAND_BATCH_TYPE,
      contentType: 'application/json',
      expiration: String(Math.max(1, deadline - Date.now())),
      headers: { [COMMAND_HEADERS.deadline]: deadline },
      persistent: false,
    });
  }

  private onReply(msg: ConsumeMessage): void {
    if (msg.properties.type === REPLY_BATCH_TYPE) {
      let replies: BatchedReply[];
      try {
        replies = readReplyBatch(msg.content);
      } catch (err) {
        // Its requests cannot be told apart: they go on waiting, and time out.
        this.logger.warn({ err: (err as Error).message }, 'unreadable reply batch');
        return;
      }
      for (const r of replies) this.settle(r.correlationId, () => r.reply);
      return;
    }
    const id = msg.properties.correlationId as string | undefined;
    if (id) this.settle(id, () => JSON.parse(msg.content.toString('utf8')));
  }

  /** Hands a reply to the request waiting for it (none: the caller gave up already). */
  private settle(id: string, read: () => unknown): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    try {
      const body = read() as RpcReply;
      if (!isRpcReply(body)) throw new Error('malformed reply');
      entry.resolve(body);
    } catch (err) {
      entry.reject(new RpcFailure('no_answer', `unreadable reply: ${(err as Error).message}`));
    }
  }

  private readonly onDisconnect = () => this.failAll('the broker connection was lost before the reply arrived', (entry) => entry.sent === true);

  private failAll(reason: string, which: (entry: Pending) => boolean = () => true): void {
    for (const [id, entry] of this.pending) {
      if (!which(entry)) continue;
      clearTimeout(entry.timer);
      entry.reject(new RpcFailure('no_answer', reason));
      this.pending.delete(id);
    }
  }

  async close(): Promise<void> {
    this.connection.removeListener('disconnect', this.onDisconnect);
    this.failAll('the client is closing');
    await this.channel?.close().catch(() => undefined);
  }
}

/** What the server knows of a command besides its payload. */
export interface CommandMeta {
  pattern: string;
  /** Unique per request; the same on a redelivery. */
  commandId: string;
  /** UNIX ms after which the command must not be applied (0: none). */
  deadline: number;
  redelivered: boolean;
  /** The command's span (its handling, from receipt to reply): what its events and log lines belong to. */
  traceparent?: string;
}

export type CommandHandler = (payload: unknown, meta: CommandMeta) => Promise<RpcReply>;

/**
 * Serves a command queue: once handled, the command is acknowledged and its reply published
 * (written together). A process that dies mid-command leaves it unacknowledged, so the broker
 * hands it at once to another replica (which applies a command id once). The acknowledgement
 * goes first because RabbitMQ 3.10 closes the connection on a reply to a requester whose node
 * has left the cluster (rabbitmq-server#6396): settled first, such a command closes one
 * connection, where it came back after every reconnection until it expired.
 */
export async function serveCommands(
  connection: AmqpConnectionManager,
  queue: string,
  prefetch: number,
  logger: AppLogger,
  handler: CommandHandler,
  queueType: QueueType,
  tracing: Tracing,
): Promise<ChannelWrapper> {
  const channel = openChannel(connection, logger, `commands ${queue}`, {
    json: false,
    setup: async (ch: ConfirmChannel, lost) => {
      await declareQueue(ch, commandQueueDeclaration(queue, queueType));
      await ch.prefetch(prefetch);
      await ch.consume(queue, (msg) => (msg ? void handle(ch, msg) : lost(CONSUMER_CANCELLED)), { noAck: false });
    },
  });
  channel.on('error', (err: Error) => logger.warn({ err: err.message }, 'command channel error'));

  async function handle(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const pattern = String(msg.properties.type ?? '');
    if (pattern === COMMAND_BATCH_TYPE) return handleBatch(ch, msg);
    const command: BatchedCommand = {
      correlationId: String(msg.properties.correlationId ?? ''),
      messageId: String(msg.properties.messageId ?? msg.properties.correlationId ?? ''),
      pattern,
      deadline: Number(msg.properties.headers?.[COMMAND_HEADERS.deadline] ?? 0) || 0,
      headers: msg.properties.headers ?? {},
      payload: undefined,
    };
    const reply = await serve(command, msg.fields.redelivered, () => JSON.parse(msg.content.toString('utf8')));
    settle(ch, msg, () => reply);
  }

  /**
   * A batch (see command-batch): its commands are served side by side, each as it would be
   * alone; once every one has its reply the message is acknowledged, then the replies go back
   * together, in one message.
   */
  async function handleBatch(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    let commands: BatchedCommand[];
    try {
      commands = readCommandBatch(msg.content);
    } catch (err) {
      // No readable correlation id: no one to answer. Its requests time out.
      logger.error({ err: (err as Error).message }, 'command batch could not be read');
      settle(ch, msg, () => undefined);
      return;
    }
    const replies = await Promise.all(commands.map((c) => serve(c, msg.fields.redelivered, () => c.payload)));
    settle(ch, msg, () => ({ replies: commands.map((c, i) => ({ correlationId: c.correlationId, reply: replies[i] })) } satisfies ReplyBatch));
  }

  /**
   * One command, in its own span (continuing its caller's trace, from its headers). Never
   * rejects: a payload that is not JSON answers `invalid`, anything else that throws (the
   * handler answers its own failures) `internal`, so the message is always settled.
   */
  async function serve(command: BatchedCommand, redelivered: boolean, payloadOf: () => unknown): Promise<RpcReply> {
    let span: ReturnType<Tracing['span']> | undefined;
    let reply: RpcReply;
    try {
      span = tracing.span(command.pattern, SpanKind.SERVER, contextFromHeaders(command.headers as Record<string, string>), () => ({
        'messaging.system': 'rabbitmq', 'rpc.system': 'rabbitmq', 'rpc.method': command.pattern, 'messaging.destination.name': queue,
      }));
      let payload: unknown;
      try {
        payload = payloadOf();
      } catch (err) {
        logger.error({ err, command: command.pattern, ...traceFields(span) }, 'command could not be read');
        span.end();
        return { error: { code: 'invalid', reason: 'rule', detail: { problem: 'the command is not valid JSON' } } };
      }
      const meta: CommandMeta = { pattern: command.pattern, commandId: command.messageId, deadline: command.deadline, redelivered, traceparent: traceparentOf(span) };
      reply = await handler(payload, meta);
    } catch (err) {
      logger.error({ err, command: command.pattern }, 'command failed');
      reply = { error: { code: 'internal', reason: 'unexpected' } };
    }
    if (span) {
      if ('error' in reply && (reply.error.code === 'internal' || reply.error.code === 'unavailable')) endWithError(span, reply.error.code);
      else span.end();
    }
    return reply;
  }

  /** Acknowledges the message, then publishes its reply (a single one or a batch), if it has one. */
  function settle(ch: ConfirmChannel, msg: ConsumeMessage, body: () => RpcReply | ReplyBatch | undefined): void {
    try {
      ch.ack(msg);
      const reply = body();
      if (msg.properties.replyTo && reply !== undefined) {
        ch.sendToQueue(msg.properties.replyTo, Buffer.from(JSON.stringify(reply)), {
          correlationId: msg.properties.correlationId,
          contentType: 'application/json',
          ...('replies' in reply ? { type: REPLY_BATCH_TYPE } : {}),
        });
      }
    } catch (err) {
      // The channel closed under us: the broker redelivers the command, applied once by its id.
      logger.warn({ err: (err as Error).message, command: String(msg.properties.type ?? '') }, 'could not answer a command');
    }
  }

  await channel.waitForConnect();
  return channel;
}

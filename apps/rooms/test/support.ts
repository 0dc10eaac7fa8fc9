import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { AddressInfo, connect as tcpConnect, createServer, Server, Socket } from 'node:net';
import { INestMicroservice } from '@nestjs/common';
import { AmqpBroker, COMMAND_BATCH_TYPE, CommandMeta, createLogger, parseConfig, RpcClient, RpcCommandError, RpcReply } from '@app/common';
import {
  brokerNames, COMMAND_HEADERS, CommandDefinition, CommandError, CreateUserV1, ReplyOf, RequestOf,
} from '@app/contracts';
import { Channel, connect as amqpConnect, ChannelModel, ConsumeMessage } from 'amqplib';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startRoomsService } from '../src/bootstrap';
import { roomsConfigShape } from '../src/config';
import { UnitOfWork } from '../src/outbox/unit-of-work';
import { TokenCommands } from '../src/cli/token-commands';
import { databaseUrl, eventually, removeTestState, TEST_SECRETS_KEYS, testInfra, trackTestState, uniqueName } from '../../../test/support/common';
import { CLI, ROOT } from '../../../test/support/processes';

/*
 * Everything the rooms integration tests need, with no import of another service: the
 * rooms service is tested on its own (its commands are its contract), so a change in the
 * gateway or the dispatcher never breaks these tests. What starts no app comes from
 * test/support/common.ts.
 */

export { databaseUrl, dropTestDatabase, EventCapture, eventually, TEST_SECRETS_KEYS, testDatabaseUrl, testInfra, trackTestState, uniqueName } from '../../../test/support/common';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The rooms service, booted in this process against a fresh database and broker namespace. */
export interface RoomsStack {
  namespace: string;
  databaseUrl: string;
  /** The broker as the tests reach it (the service may reach it through a BrokerLink). */
  amqpUrl: string;
  rooms: INestMicroservice;
  /** Starts another rooms service on the same database and namespace; stopped with the stack. */
  startReplica(env?: Record<string, string>): Promise<INestMicroservice>;
  stop(): Promise<void>;
}

export async function startStack(env: Record<string, string> = {}): Promise<RoomsStack> {
  const infra = testInfra();
  const namespace = uniqueName('t');
  const dbUrl = databaseUrl(infra.pgServerUrl, uniqueName('chat_test'));
  const state = trackTestState({ namespace, databaseUrl: dbUrl });
  const base = {
    AMQP_URL: infra.amqpUrl, BROKER_NAMESPACE: namespace, DATABASE_URL: dbUrl, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0',
    SECRETS_KEYS: TEST_SECRETS_KEYS,
  };
  const apps: INestMicroservice[] = [];
  const start = async (extra: Record<string, string>) => {
    const app = await startRoomsService(parseConfig(roomsConfigShape, { ...base, ...env, ...extra }));
    apps.push(app);
    return app;
  };
  const stack: RoomsStack = {
    namespace,
    databaseUrl: dbUrl,
    amqpUrl: infra.amqpUrl,
    rooms: undefined as unknown as INestMicroservice,
    startReplica: (extra = {}) => start(extra),
    async stop() {
      for (const app of apps) await app.close().catch(() => undefined);
      await removeTestState(infra, state);
    },
  };
  try {
    stack.rooms = await start({});
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}

/**
 * Talks to the rooms service the way the gateway does: the shared RpcClient (direct
 * reply-to, a command id and a deadline per request) on the namespace's command queue.
 */
export class RoomsRpc {
  private readonly clients = new Map<number, Promise<RpcClient>>();

  private constructor(private readonly broker: AmqpBroker, private readonly queue: string, private readonly timeoutMs: number) {}

  static async connect(amqpUrl: string, namespace: string, timeoutMs = 10_000): Promise<RoomsRpc> {
    const names = brokerNames(namespace);
    const broker = await AmqpBroker.connect(amqpUrl, names, createLogger('rooms-test-rpc', 'silent'), 5_000);
    return new RoomsRpc(broker, names.roomsCommandQueue, timeoutMs);
  }

  /** One RpcClient per timeout (the timeout is also the command's deadline and expiry). */
  private client(timeoutMs: number): Promise<RpcClient> {
    let client = this.clients.get(timeoutMs);
    if (!client) {
      client = this.broker.createRpcClient(this.queue, timeoutMs);
      this.clients.set(timeoutMs, client);
    }
    return client;
  }

  async send<D extends CommandDefinition<any, any>>(def: D, payload: RequestOf<D>, timeoutMs = this.timeoutMs): Promise<ReplyOf<D>> {
    return (await this.client(timeoutMs)).request(def, payload) as Promise<ReplyOf<D>>;
  }

  /** Sends a command that must be refused; returns the CommandError it was answered with. */
  async refused(def: CommandDefinition<any, any>, payload: unknown): Promise<CommandError> {
    let reply: unknown;
    try {
      reply = await this.send(def, payload as never);
    } catch (err) {
      if (err instanceof RpcCommandError) return err.error;
      throw err;
    }
    throw new Error(`${def.pattern} should have been refused but answered ${JSON.stringify(reply)}`);
  }

  async createUser(name: string, extra: Partial<RequestOf<typeof CreateUserV1>> = {}): Promise<ReplyOf<typeof CreateUserV1>['user']> {
    const slug = name.replace(/\W+/g, '').toLowerCase();
    const reply = await this.send(CreateUserV1, { email: `${slug}@example.com`, name, ...extra } as RequestOf<typeof CreateUserV1>);
    return reply.user;
  }

  close(): Promise<void> {
    return this.broker.close();
  }
}

export interface RawCommandOptions {
  /** AMQP message id: the command id (default: a fresh UUID). */
  messageId?: string;
  /** UNIX ms written to the x-deadline header (default: 10 s from now). */
  deadline?: number;
  /** Publish this body as is instead of the JSON of the payload. */
  rawBody?: Buffer;
}

/**
 * Commands published with plain amqplib, property by property, so that a test controls
 * what RpcClient never does: the same command id twice, a deadline already past, a body
 * that is not JSON. Replies come back on the direct reply-to of this channel.
 */
export class RawCommands {
  private readonly pending = new Map<string, (reply: RpcReply) => void>();
  private readonly batches = new Map<string, (reply: { type: string | undefined; body: unknown }) => void>();

  private constructor(private readonly conn: ChannelModel, private readonly ch: Channel, readonly queue: string) {}

  static async open(amqpUrl: string, namespace: string): Promise<RawCommands> {
    const conn = await amqpConnect(amqpUrl);
    const ch = await conn.createChannel();
    const raw = new RawCommands(conn, ch, brokerNames(namespace).roomsCommandQueue);
    await ch.consume('amq.rabbitmq.reply-to', (msg) => msg && raw.onReply(msg), { noAck: true });
    return raw;
  }

  private onReply(msg: ConsumeMessage): void {
    const batch = this.batches.get(msg.properties.correlationId);
    if (batch) {
      this.batches.delete(msg.properties.correlationId);
      batch({ type: msg.properties.type, body: JSON.parse(msg.content.toString('utf8')) });
      return;
    }
    const resolve = this.pending.get(msg.properties.correlationId);
    if (!resolve) return;
    this.pending.delete(msg.properties.correlationId);
    resolve(JSON.parse(msg.content.toString('utf8')) as RpcReply);
  }

  /** Publishes a command; resolves with its reply ({ok} or {error}), or rejects after `timeoutMs`. */
  send(pattern: string, payload: unknown, options: RawCommandOptions = {}, timeoutMs = 15_000): Promise<RpcReply> {
    const correlationId = randomUUID();
    const reply = new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(new Error(`no reply to ${pattern} (${options.messageId ?? 'fresh id'}) within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(correlationId, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    this.ch.sendToQueue(this.queue, options.rawBody ?? Buffer.from(JSON.stringify(payload)), {
      type: pattern,
      messageId: options.messageId ?? randomUUID(),
      correlationId,
      replyTo: 'amq.rabbitmq.reply-to',
      contentType: 'application/json',
      headers: { [COMMAND_HEADERS.deadline]: options.deadline ?? Date.now() + 10_000 },
    });
    return reply;
  }

  /**
   * Publishes one batch message (rpc.command-batch.v1) of the commands as given; resolves with
   * the reply message's type and body. `rawBody` publishes that body instead.
   */
  sendBatch(commands: Array<{ pattern: string; payload: unknown; messageId?: string; deadline?: number }>, rawBody?: Buffer, timeoutMs = 15_000): Promise<{ type: string | undefined; body: unknown }> {
    const correlationId = randomUUID();
    const reply = new Promise<{ type: string | undefined; body: unknown }>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.batches.delete(correlationId);
        reject(new Error(`no reply to the batch within ${timeoutMs} ms`));
      }, timeoutMs);
      this.batches.set(correlationId, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    const body = rawBody ?? Buffer.from(JSON.stringify({
      commands: commands.map((c) => ({
        correlationId: `${c.pattern}#${randomUUID()}`, messageId: c.messageId ?? randomUUID(), pattern: c.pattern,
        deadline: c.deadline ?? Date.now() + 10_000, headers: {}, payload: c.payload,
      })),
    }));
    this.ch.sendToQueue(this.queue, body, {
      type: COMMAND_BATCH_TYPE, messageId: correlationId, correlationId, replyTo: 'amq.rabbitmq.reply-to', contentType: 'application/json',
      headers: { [COMMAND_HEADERS.deadline]: Date.now() + 10_000 },
    });
    return reply;
  }

  /**
   * Takes the next `count` commands off the queue on a channel of its own and closes that
   * channel without acknowledging them: the broker puts them back flagged `redelivered`,
   * as when a consumer dies mid-command. Only meaningful while no rooms service consumes.
   */
  async bounce(count: number): Promise<Array<{ messageId: string; redelivered: boolean }>> {
    const ch = await this.conn.createChannel();
    try {
      const taken: Array<{ messageId: string; redelivered: boolean }> = [];
      while (taken.length < count) {
        const msg = await eventually(async () => {
          const m = await ch.get(this.queue, { noAck: false });
          if (!m) throw new Error(`only ${taken.length} of ${count} commands waiting in ${this.queue}`);
          return m;
        });
        taken.push({ messageId: msg.properties.messageId, redelivered: msg.fields.redelivered });
      }
      return taken;
    } finally {
      await ch.close();
    }
  }

  /** How many commands wait in the queue (none consumed yet). */
  async waiting(): Promise<number> {
    const ch = await this.conn.createChannel();
    try {
      return (await ch.checkQueue(this.queue)).messageCount;
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.ch.close().catch(() => undefined);
    await this.conn.close().catch(() => undefined);
  }
}

/** Tokens are made and revoked in-process (as the CLI does), never over the broker. */
export const tokensOf = (app: INestMicroservice) => new TokenCommands(app.get(DataSource), app.get(UnitOfWork));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built CLI (`npm run build` first) as a user runs it, on the stack's database and broker
 * namespace. Without blocking this process: the stack's outbox relay, which publishes what
 * the CLI commits, runs in it.
 */
export const cliOf = (stack: RoomsStack, extra: Record<string, string> = {}) => (...args: string[]): Promise<CliRun> => new Promise((resolve, reject) => {
  const env = { ...process.env, DATABASE_URL: stack.databaseUrl, AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, SECRETS_KEYS: TEST_SECRETS_KEYS, ...extra };
  execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
    if (err && typeof err.code !== 'number') reject(err);
    else resolve({ status: err ? (err.code as number) : 0, stdout, stderr });
  });
});

/** What a command received from the queue would carry, for a use case called in-process. */
export const inProcess = (pattern: string): CommandMeta => ({ pattern, commandId: randomUUID(), deadline: 0, redelivered: false });

/** Runs one SQL statement against a database, on a connection of its own. */
export async function sql<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export const ACTOR = { label: 'integration-test' };

/**
 * A TCP forwarder in front of the real broker, so that one service can lose RabbitMQ
 * while the broker (shared by other tests) keeps running: `cut()` drops every connection
 * and refuses new ones, `restore()` accepts them again on the same port.
 */
export class BrokerLink {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  static async open(amqpUrl: string): Promise<BrokerLink> {
    const u = new URL(amqpUrl);
    const link = new BrokerLink({ host: u.hostname, port: Number(u.port || 5672) });
    await link.restore();
    return link;
  }

  /** The broker URL with the host and port of this link. */
  url(amqpUrl: string): string {
    const u = new URL(amqpUrl);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  restore(): Promise<void> {
    if (this.server) return Promise.resolve();
    const server = createServer((client) => {
      const upstream = tcpConnect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise((r) => server.close(() => r(undefined)));
  }
}

import { connect as amqpConnect } from 'amqplib';
import Redis from 'ioredis';
import { Client } from 'pg';
import type { AmqpUrls } from '../amqp/connect';
import { declareQueue, QueueDeclaration, QueueTypeUnsupportedError, quorumUnsupportedReason } from '../amqp/queue-arguments';
import { ExplainedStartupError } from './explained-error';

export class DependencyUnreachableError extends ExplainedStartupError {
  constructor(readonly dependency: string, message: string) {
    super(message);
    this.name = 'DependencyUnreachableError';
  }
}

/** host:port of a URL, for messages (never the credentials). */
export function describeAddress(url: string, defaultPort: number): string {
  try {
    const u = new URL(url);
    return `${u.hostname || '127.0.0.1'}:${u.port || defaultPort}`;
  } catch {
    return url;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function retryUntil<T>(timeoutMs: number, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await sleep(500);
    }
  }
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e?.code && !e.message?.includes(e.code) ? `${e.code} ${e.message ?? ''}`.trim() : (e?.message ?? String(err));
}

/** Fails with a message naming PostgreSQL, its address, the variable and how to start it. */
export async function assertPostgresReachable(databaseUrl: string, timeoutMs: number): Promise<void> {
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  try {
    await retryUntil(timeoutMs, async () => {
      const client = new Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 3000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  } catch (err) {
    throw new DependencyUnreachableError('PostgreSQL',
      `Cannot reach PostgreSQL at ${describeAddress(databaseUrl, 5432)} (DATABASE_URL): ${reason(err)}.\n` +
      `Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
      `  (or: docker compose up -d postgres), or point DATABASE_URL at a running server.`);
  }
}

/** An amqplib connection to the first node of the list that answers. */
async function connectFirst(urls: AmqpUrls, timeoutMs: number) {
  let last: unknown;
  for (const url of typeof urls === 'string' ? [urls] : urls) {
    try {
      return await amqpConnect(url, { timeout: timeoutMs });
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

const addresses = (urls: AmqpUrls) => (typeof urls === 'string' ? [urls] : urls).map((u) => describeAddress(u, 5672)).join(', ');

/** Fails with a message naming RabbitMQ, its address(es), the variable and how to start it. Any node that answers will do. */
export async function assertRabbitReachable(amqpUrl: AmqpUrls, timeoutMs: number): Promise<void> {
  try {
    await retryUntil(timeoutMs, async () => {
      const conn = await connectFirst(amqpUrl, 3000);
      await conn.close().catch(() => undefined);
    });
  } catch (err) {
    throw new DependencyUnreachableError('RabbitMQ',
      `Cannot reach RabbitMQ at ${addresses(amqpUrl)} (AMQP_URL): ${reason(err)}.\n` +
      `Start it with: rabbitmq-server -detached\n` +
      `  (or: docker compose up -d rabbitmq), or point AMQP_URL at a running broker.`);
  }
}

/**
 * Declares again, as the service will, those of its durable queues that exist already, each on a
 * channel of its own: a queue of the other type (a deployment from before AMQP_QUEUE_TYPE, or set
 * otherwise) stops the start with a QueueTypeMismatchError naming it, rather than a channel that
 * fails its set-up after every reconnection. A queue not there yet is left to the service's own
 * set-up (no conflict is possible; the dispatcher declares its events queue only once ready).
 * Quorum queues on a broker too old for them stop the start with a QueueTypeUnsupportedError
 * that says so, rather than a declaration refused over an argument.
 */
export async function assertQueuesDeclarable(amqpUrl: AmqpUrls, declarations: readonly QueueDeclaration[], timeoutMs: number): Promise<void> {
  const conn = await connectFirst(amqpUrl, timeoutMs);
  conn.on('error', () => undefined);
  try {
    if (declarations.some((d) => d.options.arguments?.['x-queue-type'] === 'quorum')) {
      const version = (conn as unknown as { connection?: { serverProperties?: { version?: unknown } } }).connection?.serverProperties?.version;
      const unsupported = quorumUnsupportedReason(version);
      if (unsupported) throw new QueueTypeUnsupportedError(unsupported);
    }
    for (const declaration of declarations) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      const exists = await ch.checkQueue(declaration.queue).then(() => true, () => false);
      if (exists) {
        await declareQueue(ch, declaration);
        await ch.close().catch(() => undefined);
      }
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Fails with a message naming Redis, its address, the variable and how to start it. */
export async function assertRedisReachable(redisUrl: string, timeoutMs: number): Promise<void> {
  try {
    await retryUntil(timeoutMs, async () => {
      const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.ping();
      } finally {
        client.disconnect();
      }
    });
  } catch (err) {
    throw new DependencyUnreachableError('Redis',
      `Cannot reach Redis at ${describeAddress(redisUrl, 6379)} (REDIS_URL): ${reason(err)}.\n` +
      `Start it with: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no\n` +
      `  (or: docker compose up -d redis), or point REDIS_URL at a running server.`);
  }
}

/** Prints a start-up failure the same way in every service and exits non-zero. */
export function exitOnStartupFailure(service: string, err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${service}: ${message}\n`);
  if (!(err instanceof ExplainedStartupError) && err instanceof Error && err.stack) {
    process.stderr.write(`${err.stack}\n`);
  }
  process.exit(1);
}

/**
 * A promise rejection nobody handled is a defect to log, not a reason to stop serving:
 * by default Node exits on one, and an outage must never kill a process.
 */
export function logUnhandledRejections(service: string): void {
  process.on('unhandledRejection', (err) => {
    const detail = String((err as Error)?.stack ?? err);
    process.stderr.write(`${JSON.stringify({ level: 'error', service, msg: 'unhandled promise rejection', err: detail })}\n`);
  });
}

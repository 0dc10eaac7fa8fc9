import { connect as amqpConnect } from 'amqplib';
import Redis from 'ioredis';
import { Client } from 'pg';
import type { AmqpUrls } from '../amqp/connect';
import { declareQueue, QueueDeclaration, QueueTypeUnsupportedError, quorumUnsupportedReason } from '../amqp/queue-arguments';
import { ExplainedStartupError } from './explained-error';
import { bareUrl, redactCredentials } from '../logging/redact';

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
    return bareUrl(url);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tries until the deadline, or until an error that waiting cannot cure (`final`: credentials refused). */
async function retryUntil<T>(timeoutMs: number, attempt: () => Promise<T>, final: (err: unknown) => boolean = () => false): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (final(err) || Date.now() >= deadline) throw err;
      await sleep(500);
    }
  }
}

/** The driver's reason, one sentence without its closing full stop (the message adds its own). */
function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const text = e?.code && !e.message?.includes(e.code) ? `${e.code} ${e.message ?? ''}`.trim() : (e?.message ?? String(err));
  return redactCredentials(text).replace(/[.\s]+$/, '');
}

/** One part of a URL, '' when absent or when the URL does not parse (never the password). */
const urlPart = (url: string, part: 'hostname' | 'port' | 'username'): string => {
  try {
    return decodeURIComponent(new URL(url)[part]);
  } catch {
    return '';
  }
};

const isLocal = (host: string) => ['', 'localhost', '127.0.0.1', '[::1]', '::1'].includes(host);

/** SQLSTATE class 28: invalid authorization (28P01 a wrong password, 28000 an unknown role or a pg_hba.conf refusal). */
export const postgresRefusedCredentials = (err: unknown): boolean => /^28/.test(String((err as { code?: unknown })?.code ?? ''));

/** The broker's connection.close with 403 ACCESS_REFUSED: a wrong user or password (or guest from afar). */
export const rabbitRefusedCredentials = (err: unknown): boolean => /ACCESS[-_]REFUSED/.test(String((err as Error)?.message ?? ''));

/** ioredis' answers to AUTH (or to a command sent without it). */
export const redisRefusedCredentials = (err: unknown): boolean =>
  /WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(String((err as Error)?.message ?? ''));

/** What a failed PostgreSQL check says: refused credentials are not a server to start. */
export function postgresFailureMessage(databaseUrl: string, err: unknown): string {
  const at = describeAddress(databaseUrl, 5432);
  if (postgresRefusedCredentials(err)) {
    return `PostgreSQL at ${at} refused the credentials in DATABASE_URL: ${reason(err)}.\n` +
      `Check the user name and password in DATABASE_URL (and pg_hba.conf, which may refuse the user from this address).`;
  }
  return `Cannot reach PostgreSQL at ${at} (DATABASE_URL): ${reason(err)}.\n` +
    `Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n` +
    `  (or: docker compose up -d postgres), or point DATABASE_URL at a running server.`;
}

/** Fails with a message naming PostgreSQL, its address, the variable and how to start it (or, refused, what to check). */
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
    }, postgresRefusedCredentials);
  } catch (err) {
    throw new DependencyUnreachableError('PostgreSQL', postgresFailureMessage(databaseUrl, err));
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

const listOf = (urls: AmqpUrls): readonly string[] => (typeof urls === 'string' ? [urls] : urls);

/**
 * What a failed RabbitMQ check says. Refused credentials come from a broker that runs: the
 * advice is the user and password (never shown), not starting it.
 */
export function rabbitFailureMessage(amqpUrl: AmqpUrls, err: unknown): string {
  if (rabbitRefusedCredentials(err)) {
    const users = [...new Set(listOf(amqpUrl).map((u) => urlPart(u, 'username')).filter(Boolean))];
    const guestFromAfar = users.includes('guest') && listOf(amqpUrl).some((u) => !isLocal(urlPart(u, 'hostname')))
      ? ' The guest user may only connect from localhost unless the broker allows otherwise (loopback_users).'
      : '';
    return `RabbitMQ at ${addresses(amqpUrl)} refused the credentials in AMQP_URL` +
      `${users.length ? ` (user ${users.map((u) => `"${u}"`).join(', ')})` : ''}: ACCESS_REFUSED.\n` +
      `Check the user name and password in AMQP_URL, or create the user: rabbitmqctl add_user USER PASSWORD && ` +
      `rabbitmqctl set_permissions -p / USER ".*" ".*" ".*".${guestFromAfar}`;
  }
  const ports = [...new Set(listOf(amqpUrl).map((u) => urlPart(u, 'port') || '5672'))];
  const start = ports.length === 1 && ports[0] !== '5672' ? `RABBITMQ_NODE_PORT=${ports[0]} rabbitmq-server -detached` : 'rabbitmq-server -detached';
  return `Cannot reach RabbitMQ at ${addresses(amqpUrl)} (AMQP_URL): ${reason(err)}.\n` +
    `Start it with: ${start}\n` +
    `  (or: docker compose up -d rabbitmq), or point AMQP_URL at a running broker.`;
}

const addresses = (urls: AmqpUrls) => (typeof urls === 'string' ? [urls] : urls).map((u) => describeAddress(u, 5672)).join(', ');

/** Fails with a message naming RabbitMQ, its address(es), the variable and how to start it. Any node that answers will do. */
export async function assertRabbitReachable(amqpUrl: AmqpUrls, timeoutMs: number): Promise<void> {
  try {
    await retryUntil(timeoutMs, async () => {
      const conn = await connectFirst(amqpUrl, 3000);
      await conn.close().catch(() => undefined);
    }, rabbitRefusedCredentials);
  } catch (err) {
    throw new DependencyUnreachableError('RabbitMQ', rabbitFailureMessage(amqpUrl, err));
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
      // connect() rejects with "Connection is closed." once the socket is gone: the reason
      // (ECONNREFUSED, a refused AUTH) is the error event before it.
      let cause: unknown;
      client.on('error', (err) => {
        cause ??= err;
      });
      try {
        await client.connect();
        await client.ping();
      } catch (err) {
        throw cause ?? err;
      } finally {
        client.disconnect();
      }
    }, redisRefusedCredentials);
  } catch (err) {
    throw new DependencyUnreachableError('Redis', redisFailureMessage(redisUrl, err));
  }
}

/** What a failed Redis check says; the command to start one listens where REDIS_URL points. */
export function redisFailureMessage(redisUrl: string, err: unknown): string {
  const at = describeAddress(redisUrl, 6379);
  if (redisRefusedCredentials(err)) {
    return `Redis at ${at} refused the credentials in REDIS_URL: ${reason(err)}.\n` +
      `Check the user name and password in REDIS_URL (redis://USER:PASSWORD@host:port, or redis://:PASSWORD@host:port for requirepass).`;
  }
  const host = urlPart(redisUrl, 'hostname').replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const port = urlPart(redisUrl, 'port') || '6379';
  const compose = port === '6379' ? '\n  (or: docker compose up -d redis), or point REDIS_URL at a running server.' : '\n  or point REDIS_URL at a running server.';
  return `Cannot reach Redis at ${at} (REDIS_URL): ${reason(err)}.\n` +
    `Start it with: redis-server --daemonize yes --bind ${host} --port ${port} --save "" --appendonly no${compose}`;
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

import amqp, { AmqpConnectionManager } from 'amqp-connection-manager';
import type { AppLogger } from '../logging';
import { amqpSocketOf, coalesceWrites } from './coalesce-writes';

export interface AmqpConnectOptions {
  /** How long the first connection may take (start-up fails after it). */
  timeoutMs: number;
  /** Names the connection in the logs when a process opens more than one (the dispatcher's deliveries). */
  name?: string;
}

/** The broker's address, or the addresses of the nodes of a cluster (AMQP_URL). */
export type AmqpUrls = string | readonly string[];

/**
 * The one way a process connects to the broker (AmqpBroker, the dispatcher's DeliveryQueues):
 * a managed connection that reconnects a second after it is lost (amqp-connection-manager
 * re-runs each channel's setup), with a heartbeat, and a listener for every error (an error
 * event with none would be thrown, and a broker outage must never kill a process).
 * Resolves once connected. Given several nodes, it tries them in turn (amqp-connection-manager's
 * round robin), at start and after every loss: a process moves to another node when its own
 * goes down, and its channels are set up again there.
 */
export async function connectAmqp(urls: AmqpUrls, logger: AppLogger, options: AmqpConnectOptions): Promise<AmqpConnectionManager> {
  const what = options.name ? `AMQP (${options.name})` : 'AMQP';
  // noDelay: amqplib leaves Nagle's algorithm on, and a publish (method, header and body
  // frames written apart) then waits for the broker's delayed ACK: tens of ms per hop; a
  // small frame (a job, an ack) is held until the last is acknowledged, up to 40 ms.
  const connection = amqp.connect(typeof urls === 'string' ? [urls] : [...urls], {
    heartbeatIntervalInSeconds: 15,
    reconnectTimeInSeconds: 1,
    connectionOptions: { noDelay: true },
  });
  connection.on('disconnect', ({ err }) => logger.warn({ err: err?.message }, `${what} connection lost; reconnecting`));
  connection.on('connect', ({ connection: model, url }) => {
    // Each (re)connection has a new socket: one system call per tick on it (see coalesceWrites).
    coalesceWrites(amqpSocketOf(model));
    logger.info({ node: nodeOf(url) }, `${what} connected`);
  });
  connection.on('error', (err: Error) => logger.warn({ err: err.message }, `${what} connection error`));
  await connection.connect({ timeout: options.timeoutMs });
  return connection;
}

/** host:port of the node connected to (never the credentials). */
function nodeOf(url: unknown): string | undefined {
  try {
    const u = new URL(typeof url === 'string' ? url : String((url as { url?: string })?.url));
    return `${u.hostname}:${u.port || (u.protocol === 'amqps:' ? 5671 : 5672)}`;
  } catch {
    return undefined;
  }
}

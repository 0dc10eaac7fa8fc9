import amqp, { AmqpConnectionManager } from 'amqp-connection-manager';
import type { AppLogger } from '../logging';
import { amqpSocketOf, coalesceWrites } from './coalesce-writes';

export interface AmqpConnectOptions {
  /** How long the first connection may take (start-up fails after it). */
  timeoutMs: number;
  /** Names the connection in the logs when a process opens more than one (the dispatcher's deliveries). */
  name?: string;
}

/**
 * The one way a process connects to the broker (AmqpBroker, the dispatcher's DeliveryQueues):
 * a managed connection that reconnects a second after it is lost (amqp-connection-manager
 * re-runs each channel's setup), with a heartbeat, and a listener for every error (an error
 * event with none would be thrown, and a broker outage must never kill a process).
 * Resolves once connected.
 */
export async function connectAmqp(url: string, logger: AppLogger, options: AmqpConnectOptions): Promise<AmqpConnectionManager> {
  const what = options.name ? `AMQP (${options.name})` : 'AMQP';
  // noDelay: amqplib leaves Nagle's algorithm on, and a publish (method, header and body
  // frames written apart) then waits for the broker's delayed ACK: tens of ms per hop; a
  // small frame (a job, an ack) is held until the last is acknowledged, up to 40 ms.
  const connection = amqp.connect([url], {
    heartbeatIntervalInSeconds: 15,
    reconnectTimeInSeconds: 1,
    connectionOptions: { noDelay: true },
  });
  connection.on('disconnect', ({ err }) => logger.warn({ err: err?.message }, `${what} connection lost; reconnecting`));
  connection.on('connect', ({ connection: model }) => {
    // Each (re)connection has a new socket: one system call per tick on it (see coalesceWrites).
    coalesceWrites(amqpSocketOf(model));
    logger.info(`${what} connected`);
  });
  connection.on('error', (err: Error) => logger.warn({ err: err.message }, `${what} connection error`));
  await connection.connect({ timeout: options.timeoutMs });
  return connection;
}

import { createConnection } from 'node:net';

/**
 * Where the tests find PostgreSQL and RabbitMQ, in this order:
 *  1. TEST_DATABASE_URL / TEST_AMQP_URL (or DATABASE_URL / AMQP_URL) when set;
 *  2. the local defaults (127.0.0.1:5432, 127.0.0.1:5672) when something answers there;
 *  3. containers started by testcontainers, when a Docker engine is available.
 */
export interface Infra {
  /** Server URL; each test appends its own database name. */
  postgresUrl: string;
  amqpUrl: string;
  /** Stops what this run started (containers); a no-op for existing services. */
  stop(): Promise<void>;
  source: string;
}

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
export const LOCAL_AMQP = 'amqp://guest:guest@127.0.0.1:5672';

export function portOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return portOpen(u.hostname, Number(u.port || defaultPort));
}

export async function resolveInfra(env: NodeJS.ProcessEnv = process.env): Promise<Infra> {
  const stops: Array<() => Promise<void>> = [];
  const sources: string[] = [];

  let postgresUrl = env.TEST_DATABASE_URL || env.DATABASE_URL;
  if (postgresUrl) sources.push('PostgreSQL from environment');
  else if (await reachable(LOCAL_POSTGRES, 5432)) {
    postgresUrl = LOCAL_POSTGRES;
    sources.push('local PostgreSQL');
  }
  let amqpUrl = env.TEST_AMQP_URL || env.AMQP_URL;
  if (amqpUrl) sources.push('RabbitMQ from environment');
  else if (await reachable(LOCAL_AMQP, 5672)) {
    amqpUrl = LOCAL_AMQP;
    sources.push('local RabbitMQ');
  }

  if (!postgresUrl || !amqpUrl) {
    try {
      if (!postgresUrl) {
        const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
        const pg = await new PostgreSqlContainer('postgres:16-alpine').withUsername('postgres').withPassword('postgres').start();
        postgresUrl = pg.getConnectionUri();
        stops.push(async () => void (await pg.stop()));
        sources.push('PostgreSQL in a testcontainer');
      }
      if (!amqpUrl) {
        const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
        const mq = await new RabbitMQContainer('rabbitmq:3.13-alpine').start();
        amqpUrl = mq.getAmqpUrl();
        stops.push(async () => void (await mq.stop()));
        sources.push('RabbitMQ in a testcontainer');
      }
    } catch (err) {
      await Promise.all(stops.map((s) => s().catch(() => undefined)));
      throw new Error(
        'Integration tests need PostgreSQL and RabbitMQ: set TEST_DATABASE_URL and TEST_AMQP_URL, run them on ' +
        `127.0.0.1:5432 and 127.0.0.1:5672, or provide a Docker engine for testcontainers (${(err as Error).message})`);
    }
  }
  return {
    postgresUrl: postgresUrl!,
    amqpUrl: amqpUrl!,
    source: sources.join(', '),
    stop: async () => void (await Promise.all(stops.map((s) => s()))),
  };
}

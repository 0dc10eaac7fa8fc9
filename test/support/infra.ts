import { createConnection } from 'node:net';

/**
 * Where the tests find PostgreSQL, RabbitMQ and Redis, in this order:
 *  1. TEST_DATABASE_URL / TEST_AMQP_URL / TEST_REDIS_URL (or DATABASE_URL / AMQP_URL /
 *     REDIS_URL) when set;
 *  2. the local defaults (127.0.0.1:5432, 127.0.0.1:5672, 127.0.0.1:6379) when something
 *     answers there;
 *  3. containers started by testcontainers, when a Docker engine is available.
 */
export interface Infra {
  /** Server URL; each test appends its own database name. */
  postgresUrl: string;
  amqpUrl: string;
  /** Shared by every test stack: each keeps its keys under its own broker namespace. */
  redisUrl: string;
  /** Stops what this run started (containers); a no-op for existing services. */
  stop(): Promise<void>;
  source: string;
}

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
export const LOCAL_AMQP = 'amqp://guest:guest@127.0.0.1:5672';
export const LOCAL_REDIS = 'redis://127.0.0.1:6379';

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

  let redisUrl = env.TEST_REDIS_URL || env.REDIS_URL;
  if (redisUrl) sources.push('Redis from environment');
  else if (await reachable(LOCAL_REDIS, 6379)) {
    redisUrl = LOCAL_REDIS;
    sources.push('local Redis');
  }

  if (!postgresUrl || !amqpUrl || !redisUrl) {
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
      if (!redisUrl) {
        const { GenericContainer, Wait } = await import('testcontainers');
        const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379)
          .withWaitStrategy(Wait.forLogMessage('Ready to accept connections')).start();
        redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
        stops.push(async () => void (await redis.stop()));
        sources.push('Redis in a testcontainer');
      }
    } catch (err) {
      await Promise.all(stops.map((s) => s().catch(() => undefined)));
      throw new Error(
        'Integration tests need PostgreSQL, RabbitMQ and Redis: set TEST_DATABASE_URL, TEST_AMQP_URL and TEST_REDIS_URL, ' +
        'run them on 127.0.0.1:5432, 127.0.0.1:5672 and 127.0.0.1:6379, or provide a Docker engine for testcontainers ' +
        `(${(err as Error).message})`);
    }
  }
  return {
    postgresUrl: postgresUrl!,
    amqpUrl: amqpUrl!,
    redisUrl: redisUrl!,
    source: sources.join(', '),
    stop: async () => void (await Promise.all(stops.map((s) => s()))),
  };
}

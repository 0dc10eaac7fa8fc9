import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { INestApplication, INestApplicationContext, INestMicroservice } from '@nestjs/common';
import { connect } from 'amqplib';
import Redis from 'ioredis';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { parseConfig } from '@app/common';
import { brokerNames, EventEnvelope, TokenKind } from '@app/contracts';
import { startGateway } from '../../apps/gateway/src/bootstrap';
import { gatewayConfigShape } from '../../apps/gateway/src/config';
import { startRoomsService } from '../../apps/rooms/src/bootstrap';
import { roomsConfigShape } from '../../apps/rooms/src/config';
import { UnitOfWork } from '../../apps/rooms/src/outbox/unit-of-work';
import { TokensService } from '../../apps/rooms/src/tokens/tokens.service';
import { startDispatcher } from '../../apps/webhook-dispatcher/src/bootstrap';
import { dispatcherConfigShape } from '../../apps/webhook-dispatcher/src/config';

/** PostgreSQL server, RabbitMQ and Redis URLs resolved by the global setup. */
export function testInfra(): { pgServerUrl: string; amqpUrl: string; redisUrl: string } {
  if (process.env.TEST_INFRA_ERROR) throw new Error(process.env.TEST_INFRA_ERROR);
  const pgServerUrl = process.env.TEST_PG_SERVER_URL;
  const amqpUrl = process.env.TEST_AMQP_SERVER_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!pgServerUrl || !amqpUrl || !redisUrl) throw new Error('test infrastructure was not resolved (run the tests through jest.config.js)');
  return { pgServerUrl, amqpUrl, redisUrl };
}

/** A name no other test run uses: lower-case letters, digits and underscores. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export function databaseUrl(pgServerUrl: string, database: string): string {
  const u = new URL(pgServerUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Deletes every queue and exchange of a broker namespace. */
export async function deleteBrokerNamespace(amqpUrl: string, namespace: string): Promise<void> {
  const names = brokerNames(namespace);
  const conn = await connect(amqpUrl);
  try {
    for (const queue of [names.roomsCommandQueue, names.dispatcherEventsQueue, names.dispatcherDeadLetterQueue]) {
      const ch = await conn.createChannel();
      await ch.deleteQueue(queue).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
    for (const exchange of [names.eventsExchange, names.deadLetterExchange]) {
      const ch = await conn.createChannel();
      await ch.deleteExchange(exchange).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close();
  }
}

/** Deletes the Redis keys of a namespace (the gateways' rate-limit counters). */
export async function deleteRedisNamespace(redisUrl: string, namespace: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Collects every event published to a namespace's exchange from now on. */
export class EventCapture {
  readonly events: Array<{ routingKey: string; envelope: EventEnvelope }> = [];
  private constructor(private readonly close: () => Promise<void>) {}

  static async start(amqpUrl: string, namespace: string, pattern = '#'): Promise<EventCapture> {
    const names = brokerNames(namespace);
    const conn = await connect(amqpUrl);
    const ch = await conn.createChannel();
    await ch.assertExchange(names.eventsExchange, 'topic', { durable: true });
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
    await ch.bindQueue(queue, names.eventsExchange, pattern);
    const capture = new EventCapture(async () => {
      await ch.close().catch(() => undefined);
      await conn.close().catch(() => undefined);
    });
    await ch.consume(queue, (msg) => {
      if (!msg) return;
      capture.events.push({ routingKey: msg.fields.routingKey, envelope: JSON.parse(msg.content.toString()) });
    }, { noAck: true });
    return capture;
  }

  /** Waits for an event with this routing key matching `where`, and returns it. */
  async waitFor(routingKey: string, where: (e: EventEnvelope) => boolean = () => true, timeoutMs = 10_000): Promise<EventEnvelope> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find((e) => e.routingKey === routingKey && where(e.envelope));
      if (found) return found.envelope;
      if (Date.now() > deadline) {
        throw new Error(`no ${routingKey} event within ${timeoutMs} ms; saw: ${this.events.map((e) => e.routingKey).join(', ') || 'none'}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  stop(): Promise<void> {
    return this.close();
  }
}

export interface StackOptions {
  gateway?: boolean | Record<string, string>;
  rooms?: boolean | Record<string, string>;
  dispatcher?: boolean | Record<string, string>;
}

/** The real apps, booted in this process against a fresh database and broker namespace. */
export interface Stack {
  namespace: string;
  databaseUrl: string;
  amqpUrl: string;
  redisUrl: string;
  /** Gateway base URL, e.g. http://127.0.0.1:41234 (when a gateway was started). */
  baseUrl: string;
  gateway?: INestApplication;
  rooms?: INestMicroservice;
  dispatcher?: INestApplicationContext;
  createToken(kind: TokenKind, label?: string): Promise<string>;
  /** Starts one more gateway replica on the same namespace; it is stopped with the stack. */
  addGateway(env?: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

const overrides = (o: boolean | Record<string, string> | undefined) => (typeof o === 'object' ? o : {});

export async function startStack(options: StackOptions = { gateway: true, rooms: true, dispatcher: false }): Promise<Stack> {
  const infra = testInfra();
  const namespace = uniqueName('t');
  const dbUrl = databaseUrl(infra.pgServerUrl, uniqueName('chat_test'));
  const common = { AMQP_URL: infra.amqpUrl, BROKER_NAMESPACE: namespace, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' };
  const gateways: INestApplication[] = [];
  let rooms: INestMicroservice | undefined;
  let dispatcher: INestApplicationContext | undefined;

  const startOneGateway = async (env: Record<string, string> = {}) => {
    // One Redis for every stack: the rate-limit keys carry the stack's namespace.
    const app = await startGateway(parseConfig(gatewayConfigShape, { ...common, REDIS_URL: infra.redisUrl, HOST: '127.0.0.1', PORT: '0', ...env }));
    gateways.push(app);
    const { port } = app.getHttpServer().address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  };

  const stack: Stack = {
    namespace,
    databaseUrl: dbUrl,
    amqpUrl: infra.amqpUrl,
    redisUrl: infra.redisUrl,
    baseUrl: '',
    async createToken(kind, label = '') {
      if (!rooms) throw new Error('createToken needs the rooms service in the stack');
      return (await new TokensService(rooms.get(DataSource), rooms.get(UnitOfWork)).create(kind, label)).token;
    },
    addGateway: (env) => startOneGateway(env),
    async stop() {
      for (const app of gateways) await app.close().catch(() => undefined);
      if (dispatcher) await dispatcher.close().catch(() => undefined);
      if (rooms) await rooms.close().catch(() => undefined);
      await deleteBrokerNamespace(infra.amqpUrl, namespace).catch(() => undefined);
      await deleteRedisNamespace(infra.redisUrl, namespace).catch(() => undefined);
      await dropDatabase(dbUrl).catch(() => undefined);
    },
  };

  try {
    if (options.rooms) {
      rooms = await startRoomsService(parseConfig(roomsConfigShape, { ...common, DATABASE_URL: dbUrl, ...overrides(options.rooms) }));
      stack.rooms = rooms;
    }
    if (options.dispatcher) {
      dispatcher = await startDispatcher(parseConfig(dispatcherConfigShape, { ...common, ...overrides(options.dispatcher) }));
      stack.dispatcher = dispatcher;
    }
    if (options.gateway) {
      stack.baseUrl = await startOneGateway(overrides(options.gateway));
      stack.gateway = gateways[0];
    }
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}

export interface V1Response {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (throws when the body is not JSON). */
  json: any;
}

/**
 * Calls a v1 method the way the original clients do: parameters in the query string for
 * GET, form-encoded in the body for POST.
 */
export async function v1(baseUrl: string, verb: 'GET' | 'POST', method: string, params: Record<string, string | number>): Promise<V1Response> {
  const form = new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
  const url = verb === 'GET' ? `${baseUrl}/v1/${method}?${form}` : `${baseUrl}/v1/${method}`;
  const res = await fetch(url, verb === 'GET' ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return readResponse(res);
}

/** Status, headers and body of a fetch response, with the body parsed as JSON on demand. */
export async function readResponse(res: Response): Promise<V1Response> {
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    get json() {
      return JSON.parse(text);
    },
  };
}

/** Polls until `check` passes (returns without throwing), or rethrows its last failure. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

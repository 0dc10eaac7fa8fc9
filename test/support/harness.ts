import type { AddressInfo } from 'node:net';
import { INestApplication, INestApplicationContext, INestMicroservice } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { parseConfig } from '@app/common';
import { TokenKind } from '@app/contracts';
import { startGateway } from '../../apps/gateway/src/bootstrap';
import { gatewayConfigShape } from '../../apps/gateway/src/config';
import { startRoomsService } from '../../apps/rooms/src/bootstrap';
import { roomsConfigShape } from '../../apps/rooms/src/config';
import { UnitOfWork } from '../../apps/rooms/src/outbox/unit-of-work';
import { TokenCommands, TokenOwner } from '../../apps/rooms/src/cli/token-commands';
import { startDispatcher } from '../../apps/webhook-dispatcher/src/bootstrap';
import { dispatcherConfigShape } from '../../apps/webhook-dispatcher/src/config';
import { databaseUrl, removeTestState, retryScheduleOf, TEST_SECRETS_KEYS, testInfra, trackTestState, uniqueName } from './common';

export * from './common';

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
  /** A token made as the CLI makes it; v2 tokens name their user (personal) or room (room). */
  createToken(kind: TokenKind, label?: string, owner?: TokenOwner): Promise<string>;
  /** Starts one more gateway replica on the same namespace; it is stopped with the stack. */
  addGateway(env?: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

const overrides = (o: boolean | Record<string, string> | undefined) => (typeof o === 'object' ? o : {});

export async function startStack(options: StackOptions = { gateway: true, rooms: true, dispatcher: false }): Promise<Stack> {
  const infra = testInfra();
  const namespace = uniqueName('t');
  const dbUrl = databaseUrl(infra.pgServerUrl, uniqueName('chat_test'));
  const state = trackTestState({ namespace, databaseUrl: dbUrl, retryScheduleMs: retryScheduleOf(overrides(options.dispatcher)) });
  const common = {
    AMQP_URL: infra.amqpUrl, BROKER_NAMESPACE: namespace, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', SECRETS_KEYS: TEST_SECRETS_KEYS,
  };
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
    async createToken(kind, label = '', owner = {}) {
      if (!rooms) throw new Error('createToken needs the rooms service in the stack');
      return (await new TokenCommands(rooms.get(DataSource), rooms.get(UnitOfWork)).create(kind, label, owner)).token;
    },
    addGateway: (env) => startOneGateway(env),
    async stop() {
      for (const app of gateways) await app.close().catch(() => undefined);
      if (dispatcher) await dispatcher.close().catch(() => undefined);
      if (rooms) await rooms.close().catch(() => undefined);
      await removeTestState(infra, state);
    },
  };

  try {
    if (options.rooms) {
      rooms = await startRoomsService(parseConfig(roomsConfigShape, { ...common, DATABASE_URL: dbUrl, ...overrides(options.rooms) }));
      stack.rooms = rooms;
    }
    if (options.dispatcher) {
      dispatcher = await startDispatcher(parseConfig(dispatcherConfigShape, { ...common, DATABASE_URL: dbUrl, ...overrides(options.dispatcher) }));
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


/**
 * Test helpers that start no app: infrastructure URLs, unique names, clean-up, event
 * capture and polling. Each service's own test support builds on these without importing
 * the other services.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'amqplib';
import Redis from 'ioredis';
import { Client } from 'pg';
import { parseSecretKeys, SecretBox, secretPurpose } from '@app/common';
import { brokerNames, EventEnvelope } from '@app/contracts';
import { DeliveryDecisions } from '../../apps/webhook-dispatcher/src/delivery/delivery-decisions';
import { DeliveryQueues } from '../../apps/webhook-dispatcher/src/delivery/delivery-queues';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from '../../apps/webhook-dispatcher/src/delivery/retry-policy';
import { forgetTestState, TestState, trackTestState } from './test-state';

export { trackTestState };

/**
 * The keys every test service seals its secrets with (SECRETS_KEYS): one fixed test key, so
 * that every process of a stack (in-process apps, the launched system, the CLI) opens what
 * the others sealed. Not a key anyone uses for real.
 */
export const TEST_SECRETS_KEYS = `test:${Buffer.alloc(32, 'chat-room-service test key ').toString('base64')}`;

/** Opens what the test services sealed (a registration's signing secret: `openedSecret`). */
export const TEST_SECRET_BOX = new SecretBox(parseSecretKeys(TEST_SECRETS_KEYS));

/** A registration's signing secret in clear, as a dispatcher opens it (sealed with TEST_SECRETS_KEYS). */
export const openedSecret = (r: { id: number; oauthClientId: string | null; secret: string }): string =>
  TEST_SECRET_BOX.reveal(r.secret, secretPurpose.signing(r));

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

/**
 * A database of a test's own, on the test server (what opens it creates it), recorded in the
 * ledger until dropTestDatabase removes it: a run killed meanwhile leaves it to the next.
 */
export function testDatabaseUrl(prefix: string): string {
  const url = databaseUrl(testInfra().pgServerUrl, uniqueName(prefix));
  trackTestState({ databaseUrl: url });
  return url;
}

/** Drops a database of testDatabaseUrl (or one recorded with trackTestState) and its record; never throws. */
export async function dropTestDatabase(url: string): Promise<void> {
  await dropDatabase(url).catch(() => undefined);
  await forgetTestState({ databaseUrl: url });
}

/**
 * The retry schedule a dispatcher started with `env` runs with: what the clean-up of its delay
 * queues needs (the default's when unset, and when unreadable: a test may pass one to see it refused).
 */
export function retryScheduleOf(env: Record<string, string | undefined>): number[] | undefined {
  if (!env.WEBHOOK_RETRY_SCHEDULE) return undefined;
  try {
    return parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE);
  } catch {
    return undefined;
  }
}

/** Deletes every queue and exchange of a broker namespace whose dispatcher had this retry schedule. */
export async function deleteBrokerNamespace(amqpUrl: string, namespace: string, retryScheduleMs: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS): Promise<void> {
  const names = brokerNames(namespace);
  // The deliveries queue and those around it, as the dispatcher declares them for its retry
  // schedule (a delay queue per tier of the schedule).
  const deliveryQueues = DeliveryQueues.declarations(names, new DeliveryDecisions([...retryScheduleMs]).tiers, 'quorum').map((d) => d.queue);
  const conn = await connect(amqpUrl);
  try {
    for (const queue of [
      names.roomsCommandQueue, names.dispatcherCommandQueue, names.dispatcherEventsQueue, names.dispatcherDeadLetterQueue,
      names.dispatcherOrderedEventsQueue, names.dispatcherOrderedDeadLetterQueue, ...deliveryQueues,
    ]) {
      const ch = await conn.createChannel();
      await ch.deleteQueue(queue).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
    for (const exchange of [names.eventsExchange, names.deadLetterExchange, names.deliveriesExchange]) {
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

/**
 * Removes what a test system left on the shared servers: its broker namespace (with the delay
 * queues of `retryScheduleMs` and `moreRetrySchedulesMs`), its Redis keys and its database, and its record in the ledger
 * (trackTestState: what a killed run leaves, the next run removes). Each part is tried
 * whatever became of the others, and none throws: a clean-up must not hide the test's own outcome.
 */
export async function removeTestState(
  infra: { amqpUrl: string; redisUrl: string },
  state: TestState,
  /** keepDatabase: all but the database (the bench's BENCH_KEEP_DATABASE). */
  options: { keepDatabase?: boolean } = {},
): Promise<void> {
  if (state.namespace !== undefined) {
    await deleteBrokerNamespace(infra.amqpUrl, state.namespace, state.retryScheduleMs).catch(() => undefined);
    for (const schedule of state.moreRetrySchedulesMs ?? []) await deleteBrokerNamespace(infra.amqpUrl, state.namespace, schedule).catch(() => undefined);
    await deleteRedisNamespace(infra.redisUrl, state.namespace).catch(() => undefined);
  }
  if (!options.keepDatabase) await dropDatabase(state.databaseUrl).catch(() => undefined);
  await forgetTestState(state);
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

  /** The envelopes with this routing key (and matching `where`), in arrival order. */
  of(routingKey: string, where: (e: EventEnvelope<any>) => boolean = () => true): Array<EventEnvelope<any>> {
    return this.events.filter((e) => e.routingKey === routingKey && where(e.envelope)).map((e) => e.envelope);
  }

  /** Waits for an event with this routing key matching `where`, and returns it. */
  async waitFor(routingKey: string, where: (e: EventEnvelope<any>) => boolean = () => true, timeoutMs = 10_000): Promise<EventEnvelope<any>> {
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

/**
 * Rate limits count in windows aligned on multiples of their length (a minute's window ends at
 * every full minute). A scenario that counts to a limit and expects the next request refused
 * must not straddle a window's end, where its counts start again: this waits, if need be, until
 * the current window has at least `needMs` left (at most `needMs`, near the end of a window).
 */
export async function awayFromWindowEnd(windowSeconds: number, needMs = 20_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = () => windowMs - (Date.now() % windowMs);
  while (left() < needMs) await new Promise((r) => setTimeout(r, Math.min(250, left() + 5)));
}

import { commonShape, env, loadConfigOrExit } from '@app/common';
import { z } from 'zod';

export const roomsConfigShape = {
  ...commonShape,
  DATABASE_URL: env.url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/chat'),
  DATABASE_POOL_SIZE: env.positiveInt(10),
  /** Public base URL of the gateway: used in links inside records and events. */
  PUBLIC_BASE_URL: env.url(['http', 'https'], 'http://127.0.0.1:8080'),
  XMPP_MUC_DOMAIN: z.string().default('conf.localhost'),
  /** How long to wait for PostgreSQL and RabbitMQ at start-up before giving up. */
  STARTUP_TIMEOUT_SECONDS: env.positiveInt(5),
  /** How often the outbox sweeper looks for events a crash or an outage left behind. */
  OUTBOX_POLL_MS: env.positiveInt(1000),
  /** Events younger than this are being published by the process that wrote them. */
  OUTBOX_SWEEP_AGE_MS: env.positiveInt(2000),
  /** Unacknowledged commands one replica holds; they are what a batch is made of. */
  COMMAND_PREFETCH: env.positiveInt(200),
  /** Most commands committed together in one transaction. */
  COMMIT_BATCH_MAX: env.positiveInt(100),
  /** Batch transactions in flight at once. */
  COMMIT_CONCURRENCY: env.positiveInt(2),
};

export type RoomsConfig = z.infer<z.ZodObject<typeof roomsConfigShape>>;

export const loadRoomsConfig = (e: NodeJS.ProcessEnv = process.env): RoomsConfig =>
  loadConfigOrExit('rooms', roomsConfigShape, e);

export const ROOMS_CONFIG = Symbol('ROOMS_CONFIG');

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
  OUTBOX_POLL_MS: env.positiveInt(1000),
  COMMAND_PREFETCH: env.positiveInt(50),
};

export type RoomsConfig = z.infer<z.ZodObject<typeof roomsConfigShape>>;

export const loadRoomsConfig = (e: NodeJS.ProcessEnv = process.env): RoomsConfig =>
  loadConfigOrExit('rooms', roomsConfigShape, e);

export const ROOMS_CONFIG = Symbol('ROOMS_CONFIG');

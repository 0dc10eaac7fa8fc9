import { commonShape, env, loadConfigOrExit } from '@app/common';
import { z } from 'zod';

export const gatewayConfigShape = {
  ...commonShape,
  HOST: z.string().default('0.0.0.0'),
  PORT: env.port(8080),
  /** Public base URL of this gateway: used in the documentation links of error messages. */
  PUBLIC_BASE_URL: env.url(['http', 'https'], 'http://127.0.0.1:8080'),
  RATE_LIMIT_MAX: env.positiveInt(100),
  RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(300),
  /** Largest accepted request body; larger ones get 413. */
  BODY_LIMIT_BYTES: env.positiveInt(256 * 1024),
  /** How long to wait for the rooms service to answer a command. */
  COMMAND_TIMEOUT_MS: env.positiveInt(10_000),
  /** Redis holding the rate-limit counters that every gateway replica shares. */
  REDIS_URL: env.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
  STARTUP_TIMEOUT_SECONDS: env.positiveInt(5),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>>;

export const loadGatewayConfig = (e: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfigOrExit('gateway', gatewayConfigShape, e);

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

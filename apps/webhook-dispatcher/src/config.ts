import { commonShape, env, loadConfigOrExit } from '@app/common';
import { z } from 'zod';

export const dispatcherConfigShape = {
  ...commonShape,
  /** Unacknowledged events one replica holds at a time. */
  EVENT_PREFETCH: env.positiveInt(20),
  STARTUP_TIMEOUT_SECONDS: env.positiveInt(5),
};

export type DispatcherConfig = z.infer<z.ZodObject<typeof dispatcherConfigShape>>;

export const loadDispatcherConfig = (e: NodeJS.ProcessEnv = process.env): DispatcherConfig =>
  loadConfigOrExit('webhook-dispatcher', dispatcherConfigShape, e);

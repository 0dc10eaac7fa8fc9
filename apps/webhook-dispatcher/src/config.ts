import { commonShape, env, loadConfigOrExit, METRICS_PORTS, observabilityShape, parseAllowedNetworks } from '@app/common';
import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from './delivery/retry-policy';

/** A variable read with a parser of its own: a parser's error names the rule, parseConfig the variable. */
const parsedWith = <T>(parse: (text: string) => T, fallback: () => T) =>
  z.string().optional().transform((value, ctx): T => {
    if (value === undefined) return fallback();
    try {
      return parse(value);
    } catch (err) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: (err as Error).message });
      return z.NEVER;
    }
  });

export const dispatcherConfigShape = {
  ...commonShape,
  /** GET /metrics, /health/live and /health/ready (see README: Metrics and health). */
  ...observabilityShape(METRICS_PORTS['webhook-dispatcher']),
  /** The rooms service's database: the dispatcher keeps its delivery records there, in tables of its own. */
  DATABASE_URL: env.url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/chat'),
  DATABASE_POOL_SIZE: env.positiveInt(10),
  /** Unacknowledged events one replica holds at a time (each waits for its pending rows and job confirms). */
  EVENT_PREFETCH: env.positiveInt(200),
  STARTUP_TIMEOUT_SECONDS: env.positiveInt(5),
  /** CIDRs the outbound guard lets through although private or loopback (local development, tests). */
  WEBHOOK_ALLOWED_NETWORKS: parsedWith(parseAllowedNetworks, () => [] as string[]),
  /** Per-attempt time limit of a delivery. */
  WEBHOOK_TIMEOUT_MS: env.positiveInt(10_000),
  /** Delays before each retry, e.g. `5s,5m,30m,2h,5h,10h`: after the last, a delivery has failed. */
  WEBHOOK_RETRY_SCHEDULE: parsedWith(parseRetrySchedule, () => [...DEFAULT_RETRY_SCHEDULE_MS]),
  /** Deliveries in flight at once per replica (the deliveries queue's prefetch). */
  WEBHOOK_CONCURRENCY: env.positiveInt(64),
  /**
   * Attempts one replica leaves in flight to a receiver that is slow (an attempt outlasted
   * 250 ms); past it, an attempt fails at once as `busy` and is retried on the schedule.
   */
  WEBHOOK_SLOW_RECEIVER_LIMIT: env.positiveInt(100),
  /** Delivered and cancelled deliveries (and their attempts) older than this many days are deleted, hourly. */
  WEBHOOK_RECORD_RETENTION_DAYS: env.positiveInt(30),
  /** Failed deliveries are kept this many days: long enough to be recovered (the delivery log's recover). */
  WEBHOOK_FAILED_RETENTION_DAYS: env.positiveInt(90),
  /** How much of a receiver's answer is read (a reply longer than this is not posted). */
  WEBHOOK_MAX_RESPONSE_BYTES: env.positiveInt(65_536),
  /**
   * Redis, where the replicas share each bridge's posting budget (the platforms' rate limits,
   * and the waits a platform asked for). The gateway's default, the same Redis its replicas
   * share rate limits in. While it cannot be reached each replica keeps the limits alone, in
   * memory (with a warning), so N replicas may post N times as fast: no delivery waits on it.
   */
  REDIS_URL: env.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
  /**
   * The keys the rooms service seals signing secrets with (the same SECRETS_KEYS): the
   * registrations arrive with their secrets sealed, opened only to sign an attempt.
   */
  SECRETS_KEYS: env.secretKeys(),
};

export type DispatcherConfig = z.infer<z.ZodObject<typeof dispatcherConfigShape>>;

export const loadDispatcherConfig = (e: NodeJS.ProcessEnv = process.env): DispatcherConfig =>
  loadConfigOrExit('webhook-dispatcher', dispatcherConfigShape, e);

export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');

import { commonShape, env, loadConfigOrExit, METRICS_PORTS, observabilityShape, parseAllowedNetworks } from '@app/common';
import { z } from 'zod';

export const roomsConfigShape = {
  ...commonShape,
  /** GET /metrics, /health/live and /health/ready (see README: Metrics and health). */
  ...observabilityShape(METRICS_PORTS.rooms),
  DATABASE_URL: env.url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/chat'),
  DATABASE_POOL_SIZE: env.positiveInt(10),
  /** Public base URL of the gateway: used in links inside records and events. */
  PUBLIC_BASE_URL: env.publicBaseUrl('http://127.0.0.1:8080'),
  XMPP_MUC_DOMAIN: z.string().default('conf.localhost'),
  /** How long to wait for PostgreSQL and RabbitMQ at start-up before giving up. */
  STARTUP_TIMEOUT_SECONDS: env.positiveInt(5),
  /**
   * How often a standby replica tries to become the outbox relay, and the relay looks for
   * events nobody woke it for (the CLI's, a broker outage's backlog).
   */
  OUTBOX_POLL_MS: env.positiveInt(1000),
  /**
   * How long published room events are kept for live connections to resume from
   * (Last-Event-ID): `25h` by default, the 24 hours promised and an hour's margin.
   */
  LIVE_EVENTS_RETENTION: env.duration('25h'),
  /** Unacknowledged commands one replica holds; they are what a batch is made of. */
  COMMAND_PREFETCH: env.positiveInt(200),
  /** Most commands committed together in one transaction. */
  COMMIT_BATCH_MAX: env.positiveInt(100),
  /** Batch transactions in flight at once. */
  COMMIT_CONCURRENCY: env.positiveInt(2),
  /**
   * A webhook whose every attempt has failed for this long (`5d`, `10m`, `3s`)... is disabled,
   * its room told (the dispatchers report their attempts to this service).
   */
  WEBHOOK_DISABLE_AFTER: env.duration('5d'),
  /** ...and at least this many times. */
  WEBHOOK_DISABLE_MIN_FAILURES: env.positiveInt(20),
  /** Most webhooks one integration (an add-on, or a user through the REST API) may register in a room. */
  WEBHOOKS_PER_ROOM_MAX: env.positiveInt(10),
  /**
   * Comma-separated CIDRs the outbound client may reach although they are loopback, private,
   * ... (local development, tests); empty by default. Add-on descriptors and install callbacks.
   */
  WEBHOOK_ALLOWED_NETWORKS: z.string().default('').transform((v, ctx) => {
    try {
      return parseAllowedNetworks(v);
    } catch (err) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: (err as Error).message });
      return z.NEVER;
    }
  }),
  /**
   * Per call to an add-on (descriptor fetch, install callback). An install makes two in one
   * command: keep twice this under the gateway's and the CLI's COMMAND_TIMEOUT_MS (10 s by default).
   */
  ADDON_HTTP_TIMEOUT_MS: env.positiveInt(4000),
  /** How long the audit log keeps its lines (whole days); older ones are pruned. */
  AUDIT_RETENTION_DAYS: env.positiveInt(90),
  /** How often a replica prunes the audit log (`1h`; seconds in tests). Replicas may prune at once: each skips the others' rows. */
  AUDIT_PRUNE_EVERY: env.duration('1h'),
  /** The group's name, as OAuth token answers give it (`group_name`). */
  GROUP_NAME: z.string().min(1).max(100).default('Chat Room Service'),
  /**
   * The keys that encrypt webhook signing secrets and add-ons' OAuth client secrets at rest
   * (see README: Secrets at rest): `keyId:base64-32-bytes`, comma-separated, the first encrypts.
   */
  SECRETS_KEYS: env.secretKeys(),
};

export type RoomsConfig = z.infer<z.ZodObject<typeof roomsConfigShape>>;

export const loadRoomsConfig = (e: NodeJS.ProcessEnv = process.env): RoomsConfig =>
  loadConfigOrExit('rooms', roomsConfigShape, e);
